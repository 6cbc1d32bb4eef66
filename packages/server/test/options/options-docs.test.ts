// The options table of docs/operations.md is the one rendered from the option declarations, its links
// lead somewhere, and the docs name only server variables that exist.
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import {
  OPTIONS_DOCS_COMMAND,
  serverOptionsMarkdown,
  serverOptionsTableOf,
  withServerOptionsTable,
} from "../../src/options/options-markdown.js";
import { SERVER_ENV, SERVER_OPTION_TABLE } from "../../src/options.js";
import { PREPARED_STATEMENTS_VARIABLE } from "../../src/storage/connect-database.js";
import { TRANSACTION_GUARD_VARIABLE } from "../../src/storage/transaction-scope.js";

const root = fileURLToPath(new URL("../../../../", import.meta.url));
const docs = join(root, "docs");
const operations = readFileSync(join(docs, "operations.md"), "utf8");

/** GitHub's anchor of a heading: lower case, punctuation dropped, spaces as hyphens. */
function anchorOf(heading: string): string {
  return heading
    .toLowerCase()
    .replace(/[^\p{L}\p{N} _-]/gu, "")
    .replaceAll(" ", "-");
}

function anchorsOf(page: string): Set<string> {
  return new Set([...page.matchAll(/^#{1,6} (.+)$/gm)].map((match) => anchorOf(match[1] ?? "")));
}

describe("the options table of docs/operations.md", () => {
  it("is exactly the one rendered from the declarations", () => {
    const onPage = serverOptionsTableOf(operations);
    expect(onPage, "docs/operations.md lacks the options table's marker comments").toBeDefined();
    expect(
      onPage,
      `docs/operations.md's options table is stale: run \`${OPTIONS_DOCS_COMMAND}\` and commit docs/operations.md`,
    ).toBe(serverOptionsMarkdown());
  });

  it("has a row for every option, in the declaration's order", () => {
    const names = [...(serverOptionsTableOf(operations) ?? "").matchAll(/^\| `([A-Za-z]+)` \|/gm)].map(
      (match) => match[1],
    );
    expect(names).toEqual(Object.keys(SERVER_OPTION_TABLE));
  });

  it("rewrites only what lies between the markers", () => {
    const stale = withServerOptionsTable(operations, "| stale |");
    expect(serverOptionsTableOf(stale)).toBe("| stale |");
    expect(withServerOptionsTable(stale, serverOptionsTableOf(operations))).toBe(operations);
    expect(() => withServerOptionsTable("# no markers\n")).toThrow(/lacks the markers/);
  });

  it("links only to pages and headings that exist", () => {
    const links = [...serverOptionsMarkdown().matchAll(/\]\(([^)]+)\)/g)].map((match) => match[1] ?? "");
    expect(links.length).toBeGreaterThan(5);
    for (const link of links) {
      const [file, anchor] = link.split("#");
      const page = file === "" || file === undefined ? operations : readFileSync(join(docs, file), "utf8");
      if (anchor !== undefined) expect(anchorsOf(page), link).toContain(anchor);
    }
  });
});

describe("the docs' TOOLHOST_* server variables", () => {
  // Variables of the clients and executors, server switches read outside the options, and one the
  // docs say was removed.
  const notServerOptions = new Set([
    "TOOLHOST_URL",
    "TOOLHOST_API_KEY",
    "TOOLHOST_ADMIN_KEY",
    "TOOLHOST_PYTHON_TEST_DATABASE_URL",
    "TOOLHOST_EVENT_POLL_INTERVAL_MS",
    TRANSACTION_GUARD_VARIABLE,
    PREPARED_STATEMENTS_VARIABLE,
  ]);

  it("are all options' variables", () => {
    const pages = [
      join(root, "README.md"),
      ...readdirSync(docs)
        .filter((file) => file.endsWith(".md"))
        .map((file) => join(docs, file)),
    ];
    const declared = new Set<string>(Object.values(SERVER_ENV));
    const unknown = new Set<string>();
    for (const page of pages) {
      for (const match of readFileSync(page, "utf8").matchAll(/\bTOOLHOST_[A-Z0-9_]*[A-Z0-9]\b/g)) {
        if (!declared.has(match[0]) && !notServerOptions.has(match[0])) unknown.add(match[0]);
      }
    }
    expect([...unknown]).toEqual([]);
  });
});
