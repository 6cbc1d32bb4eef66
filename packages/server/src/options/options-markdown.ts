/**
 * The options table of docs/operations.md, rendered from the option declarations: the page holds it
 * between two marker comments, `npm run docs:options` rewrites it there, and a test fails when the
 * page's copy differs from this rendering.
 */

import type { OptionKind } from "./option-kinds.js";
import { type AnyOptionSpec, SERVER_OPTION_TABLE } from "./server-option-table.js";

/** The command that rewrites the table (named in the markers and in the test's failure). */
export const OPTIONS_DOCS_COMMAND = "npm run docs:options";

/** The comment opening the generated table. */
export const OPTIONS_TABLE_START = `<!-- server options: generated from packages/server/src/options/server-option-table.ts by \`${OPTIONS_DOCS_COMMAND}\`, do not edit by hand -->`;

/** The comment closing it. */
export const OPTIONS_TABLE_END = "<!-- end of the generated server options -->";

/** The markdown table of every server option, one row each, in the declaration's order. */
export function serverOptionsMarkdown(table: Readonly<Record<string, AnyOptionSpec>> = SERVER_OPTION_TABLE): string {
  const rows = Object.entries(table).map(([name, spec]) =>
    row([
      `\`${name}\``,
      spec.env === null ? "— (in code only)" : `\`${spec.env}\``,
      spec.shownDefault ?? (spec.kind as OptionKind<unknown, unknown>).show(spec.default),
      spec.kind.accepts,
      spec.doc,
    ]),
  );
  return [
    row(["option", "variable", "default", "accepts", "what it sets"]),
    row(["---", "---", "---", "---", "---"]),
    ...rows,
  ].join("\n");
}

/** `page` with the text between the markers replaced by the rendered table; an Error when a marker is missing. */
export function withServerOptionsTable(page: string, markdown: string = serverOptionsMarkdown()): string {
  const start = page.indexOf(OPTIONS_TABLE_START);
  const end = page.indexOf(OPTIONS_TABLE_END);
  if (start < 0 || end < start) {
    throw new Error(`the page lacks the markers ${OPTIONS_TABLE_START} … ${OPTIONS_TABLE_END}`);
  }
  return `${page.slice(0, start + OPTIONS_TABLE_START.length)}\n${markdown}\n${page.slice(end)}`;
}

/** The text between the markers (without the newlines next to them), or undefined without markers. */
export function serverOptionsTableOf(page: string): string | undefined {
  const start = page.indexOf(OPTIONS_TABLE_START);
  const end = page.indexOf(OPTIONS_TABLE_END);
  if (start < 0 || end < start) return undefined;
  return page
    .slice(start + OPTIONS_TABLE_START.length, end)
    .replace(/^\n/, "")
    .replace(/\n$/, "");
}

function row(cells: readonly string[]): string {
  // A `|` in a cell would end it early.
  return `| ${cells.map((cell) => cell.replaceAll("|", "\\|")).join(" | ")} |`;
}
