/**
 * Where a toolhost cycle's statement time goes: the times a timed server's statement counter kept by
 * SQL text (statement-counter.mjs, TOOLHOST_BENCH_STATEMENT_TIMES=1), grouped by what each statement
 * does — its verb, the tables it names, an UPDATE's first columns set — per cycle. Pure: no I/O.
 */

/** Words that follow FROM, JOIN, INTO or UPDATE without naming a table (`for update of r, c`, `from (select`). */
const NOT_TABLES = new Set(["select", "of", "lateral", "only"]);

/** Transaction control, by its first word. */
const CONTROL = /^(begin|commit|rollback|savepoint|release)\b/;

/** Names after FROM, JOIN, INTO and UPDATE, in order, each once (quotes, aliases and CTE names dropped). */
function tablesOf(sqlText) {
  const ctes = new Set(
    [...sqlText.matchAll(/(?:\bwith|,)\s+"?([a-z_][a-z0-9_]*)"?\s+as\s+(?:not\s+)?(?:materialized\s+)?\(/g)].map(
      (m) => m[1],
    ),
  );
  const tables = [];
  for (const match of sqlText.matchAll(/\b(?:from|join|into|update)\s+("?)([a-z_][a-z0-9_]*)\1/g)) {
    const table = match[2];
    if (!tables.includes(table) && !ctes.has(table) && !NOT_TABLES.has(table)) tables.push(table);
  }
  return tables;
}

/**
 * A short name for what `sqlText` does: `commit`, `select tool_calls, runs`, `update tool_calls set
 * status, settled_at_ms, …`, `insert receipts`; `with …` statements by their verbs and tables.
 */
export function statementLabel(sqlText) {
  const text = sqlText.replace(/\s+/g, " ").trim().toLowerCase();
  const control = CONTROL.exec(text);
  if (control !== null) return control[1] === "begin" ? text.replace(/ toolhost_\w+$/, "") : control[1];
  const tables = tablesOf(text).join(", ");
  if (text.startsWith("update ")) {
    const set = / set (.*?)(?: where | returning |$)/.exec(text)?.[1] ?? "";
    const columns = [...set.matchAll(/(?:^|, )"?([a-z_][a-z0-9_]*)"? =/g)].map((m) => m[1]);
    const shown = columns.slice(0, 3).join(", ") + (columns.length > 3 ? ", …" : "");
    return `update ${tables}${shown === "" ? "" : ` set ${shown}`}`;
  }
  const verb = /^(select|insert|delete|with|listen|notify|unlisten|pragma|analyze)\b/.exec(text)?.[1] ?? "other";
  if (verb === "with") {
    const verbs = ["insert", "update", "delete"].filter((v) => new RegExp(`\\b${v}\\b`).test(text));
    return `with (${verbs.length === 0 ? "select" : verbs.join(" + ")}) ${tables}`;
  }
  return tables === "" ? verb : `${verb} ${tables}`;
}

/**
 * The timed statements grouped by label, most time first: per cycle how many and how long, the
 * microseconds each, and the share of all statement time.
 * @param {{ sql: string, count: number, us: number }[]} times
 * @param {number} cycles
 * @returns {{ rows: { label: string, texts: number, perCycle: number, usEach: number, usPerCycle: number, share: number }[], usPerCycle: number, statementsPerCycle: number }}
 */
export function statementTimeRows(times, cycles) {
  const groups = new Map();
  for (const { sql, count, us } of times) {
    const label = statementLabel(sql);
    const group = groups.get(label) ?? { label, texts: 0, count: 0, us: 0 };
    group.texts++;
    group.count += count;
    group.us += us;
    groups.set(label, group);
  }
  const totalUs = [...groups.values()].reduce((sum, group) => sum + group.us, 0);
  const totalCount = [...groups.values()].reduce((sum, group) => sum + group.count, 0);
  const per = (value) => (cycles > 0 ? value / cycles : Number.NaN);
  const rows = [...groups.values()]
    .sort((a, b) => b.us - a.us || a.label.localeCompare(b.label))
    .map((group) => ({
      label: group.label,
      texts: group.texts,
      perCycle: per(group.count),
      usEach: group.count > 0 ? group.us / group.count : 0,
      usPerCycle: per(group.us),
      share: totalUs > 0 ? group.us / totalUs : 0,
    }));
  return { rows, usPerCycle: per(totalUs), statementsPerCycle: per(totalCount) };
}
