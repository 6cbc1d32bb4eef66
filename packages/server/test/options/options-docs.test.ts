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
import { SERVER_DEFAULTS, SERVER_ENV, SERVER_OPTION_TABLE } from "../../src/options.js";
import { PREPARED_STATEMENTS_VARIABLE } from "../../src/storage/engine/connect-database.js";
import { TRANSACTION_GUARD_VARIABLE } from "../../src/storage/engine/transaction-scope.js";

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

/** README.md and every page of docs/. */
const PAGES = [
  join(root, "README.md"),
  ...readdirSync(docs)
    .filter((file) => file.endsWith(".md"))
    .map((file) => join(docs, file)),
].map((path) => ({ name: path.slice(root.length), text: readFileSync(path, "utf8") }));

/** Milliseconds or bytes per unit word of the docs' prose. */
const UNIT_SIZES: Readonly<Record<string, number>> = {
  ms: 1,
  s: 1_000,
  min: 60_000,
  h: 3_600_000,
  day: 86_400_000,
  days: 86_400_000,
  KiB: 1024,
  MiB: 1024 * 1024,
  GiB: 1024 * 1024 * 1024,
};

describe("the docs' TOOLHOST_* server variables", () => {
  it("restate defaults the table declares, wherever a page follows a variable with one", () => {
    // "`TOOLHOST_X`, 15 min", "`TOOLHOST_X` (default 250 ms", "`TOOLHOST_X`, 1 000": digits grouped by commas or spaces.
    const restated =
      /`(TOOLHOST_[A-Z0-9_]+)`\)?,?\s*\(?(?:default\s+)?(\d{1,3}(?:[, ]\d{3})+|\d+)(?:\s(ms|s|min|h|days?|KiB|MiB|GiB)\b)?/g;
    const names = new Map<string, string>(Object.entries(SERVER_ENV).map(([name, variable]) => [variable, name]));
    let checked = 0;
    for (const page of PAGES) {
      for (const match of page.text.matchAll(restated)) {
        const name = names.get(match[1] ?? "");
        if (name === undefined) continue;
        const value = Number((match[2] ?? "").replace(/[, ]/g, "")) * (UNIT_SIZES[match[3] ?? "ms"] ?? Number.NaN);
        expect(value, `${page.name}: ${match[0]}`).toBe(SERVER_DEFAULTS[name as keyof typeof SERVER_DEFAULTS]);
        checked += 1;
      }
    }
    expect(checked).toBeGreaterThan(20);
  });

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
    const declared = new Set<string>(Object.values(SERVER_ENV));
    const unknown = new Set<string>();
    for (const page of PAGES) {
      for (const match of page.text.matchAll(/\bTOOLHOST_[A-Z0-9_]*[A-Z0-9]\b/g)) {
        if (!declared.has(match[0]) && !notServerOptions.has(match[0])) unknown.add(match[0]);
      }
    }
    expect([...unknown]).toEqual([]);
  });
});
