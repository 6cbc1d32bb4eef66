/** Small Markdown helpers shared by the suites (the same tables are printed to the console). */

/** A Markdown table; cells are stringified, `|` escaped. @param {string[]} headers @param {unknown[][]} rows */
export function markdownTable(headers, rows) {
  const cell = (value) => String(value).replaceAll("|", "\\|");
  const line = (cells) => `| ${cells.map(cell).join(" | ")} |`;
  return [line(headers), line(headers.map(() => "---")), ...rows.map(line)].join("\n");
}

/** A byte count as the benchmarks name sizes (`64 KiB`, `1 MiB`). */
export function sizeLabel(bytes) {
  if (bytes >= 2 ** 20 && bytes % 2 ** 20 === 0) return `${bytes / 2 ** 20} MiB`;
  if (bytes >= 2 ** 10 && bytes % 2 ** 10 === 0) return `${bytes / 2 ** 10} KiB`;
  return `${bytes} B`;
}

/** A number with `digits` significant-looking decimals, for tables. */
export function fixed(value, digits = 1) {
  return Number.isFinite(value) ? value.toFixed(digits) : "–";
}
