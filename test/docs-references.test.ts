// Every `toolhost` command and every HTTP route that README.md and docs/ name exists: commands (and
// subcommands) in the CLI's commander program, routes in a real app (a route that does not exist
// answers 404 `not_found` "no route …" or 405 before any credential is looked at).
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import type { CommandContext } from "@toolhost/cli";
import { buildProgram } from "@toolhost/cli";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildApp } from "../packages/server/src/app/build-app.js";
import type { App } from "../packages/server/src/http/app.js";
import { compileServerOptions } from "../packages/server/src/options.js";
import { openStorage } from "../packages/server/src/storage/open-storage.js";
import type { Storage } from "../packages/server/src/storage/storage.js";

const root = fileURLToPath(new URL("..", import.meta.url));

/** README.md, every page of docs/ and the examples' READMEs. */
const PAGES: ReadonlyArray<{ name: string; text: string }> = [
  "README.md",
  ...readdirSync(join(root, "docs"))
    .filter((file) => file.endsWith(".md"))
    .map((file) => `docs/${file}`),
  ...readdirSync(join(root, "examples")).map((dir) => `examples/${dir}/README.md`),
].flatMap((name) => {
  try {
    return [{ name, text: readFileSync(join(root, name), "utf8") }];
  } catch {
    return [];
  }
});

/** The code in a page: fenced blocks and inline code spans (prose never names a command by accident there). */
function codeOf(text: string): string[] {
  const blocks = [...text.matchAll(/```[^\n]*\n([\s\S]*?)```/g)].map((match) => match[1] ?? "");
  const prose = text.replace(/```[\s\S]*?```/g, "");
  const spans = [...prose.matchAll(/`([^`\n]+)`/g)].map((match) => match[1] ?? "");
  return [...blocks, ...spans];
}

/** `toolhost <command> [<subcommand>]` mentions, with the page naming them. */
function commandMentions(): Array<{ page: string; words: string[] }> {
  const mentions: Array<{ page: string; words: string[] }> = [];
  for (const page of PAGES) {
    for (const code of codeOf(page.text)) {
      for (const match of code.matchAll(/(?:^|[\s/(])toolhost(?:\.js)? ([a-z][a-z-]*)(?: ([a-z][a-z-]*))?/gm)) {
        mentions.push({ page: page.name, words: [match[1] ?? "", match[2] ?? ""].filter((word) => word !== "") });
      }
    }
  }
  return mentions;
}

/** `METHOD /path` mentions, normalised to a concrete URL (placeholders become `x1`, no query). */
function routeMentions(): Array<{ page: string; method: string; path: string; url: string }> {
  const found = new Map<string, { page: string; method: string; path: string; url: string }>();
  for (const page of PAGES) {
    for (const match of page.text.matchAll(/\b(GET|POST|PUT|PATCH|DELETE) (\/[^\s`)|,;"]*)/g)) {
      const method = match[1] ?? "";
      const path = (match[2] ?? "").split("?")[0]?.replace(/[….:]+$/u, "") ?? "";
      const url = path
        .split("/")
        .map((segment) => (/[{}<>…:]/u.test(segment) ? "x1" : segment))
        .join("/");
      found.set(`${method} ${url}`, { page: page.name, method, path, url });
    }
  }
  return [...found.values()];
}

describe("docs name only commands that exist", () => {
  const program = buildProgram({ env: {}, io: {}, stdout: {}, stderr: {} } as unknown as CommandContext);
  const commands = new Map(program.commands.map((command) => [command.name(), command]));

  it("finds the commands the README teaches", () => {
    const named = new Set(commandMentions().map((mention) => mention.words[0]));
    for (const command of ["serve", "measure", "preview", "keys", "dry-run", "demo", "migrate"]) {
      expect(named, command).toContain(command);
    }
  });

  it.each(commandMentions().map((mention) => [mention.words.join(" "), mention.page, mention.words] as const))(
    "toolhost %s (%s)",
    (_text, _page, words) => {
      const command = commands.get(words[0] ?? "");
      expect(command, `no command ${words[0]}`).toBeDefined();
      const sub = words[1];
      // A second word names a subcommand only for commands that have subcommands (else it is an argument).
      if (sub !== undefined && command !== undefined && command.commands.length > 0) {
        expect(
          command.commands.map((child) => child.name()),
          `no subcommand ${words.join(" ")}`,
        ).toContain(sub);
      }
    },
  );
});

describe("docs name only HTTP routes that exist", () => {
  let storage: Storage;
  let app: App;
  beforeAll(async () => {
    storage = await openStorage("sqlite::memory:");
    app = await buildApp({
      storage,
      options: compileServerOptions({ databaseUrl: "sqlite::memory:", logLevel: "silent" }, {}),
    });
  });
  afterAll(async () => {
    await app.close();
    await storage.close();
  });

  it("finds the routes the docs describe", () => {
    expect(routeMentions().length).toBeGreaterThan(30);
  });

  it.each(routeMentions().map((route) => [route.method, route.path, route.page, route.url] as const))(
    "%s %s (%s)",
    async (method, path, _page, url) => {
      const answer = await app.inject({ method, url });
      const body = answer.json() as { error?: { code?: string; message?: string } };
      const unmatched =
        answer.statusCode === 405 ||
        (answer.statusCode === 404 && body.error?.message?.startsWith("no route") === true);
      expect(unmatched, `${method} ${path}: ${answer.statusCode} ${answer.body}`).toBe(false);
    },
  );
});
