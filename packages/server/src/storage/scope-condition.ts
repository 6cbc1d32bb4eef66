/** The SQL conditions of agent and binding scopes, so scope filtering happens in the WHERE clause. */

import { type RawBuilder, type SqlBool, sql } from "kysely";
import type { IdScope } from "./records.js";
import type { Dialect } from "./storage.js";

/** `column` lies in `scope`: always for `"*"`, never for an empty list, else `column IN (…)`. */
export function inScope(column: string, scope: IdScope): RawBuilder<SqlBool> {
  if (scope === "*") return sql<SqlBool>`1 = 1`;
  if (scope.length === 0) return sql<SqlBool>`1 = 0`;
  return sql<SqlBool>`${sql.ref(column)} in (${sql.join([...new Set(scope)])})`;
}

/**
 * The ID scope stored as JSON text in `column` (`"*"` or an array of IDs) lies within `outer`
 * (`idScopeWithin` in SQL): always for `"*"`; for a list, the stored scope is an array every
 * element of which the list holds. PostgreSQL decides it by jsonb containment (`'"*"' <@ '["a"]'` is
 * false, since no ID is `*`); SQLite by `json_each`, which reads a scalar as one element.
 */
export function idScopeJsonWithin(dialect: Dialect, column: string, outer: IdScope): RawBuilder<SqlBool> {
  if (outer === "*") return sql<SqlBool>`1 = 1`;
  const ids = [...new Set(outer)];
  if (dialect === "postgres") {
    return sql<SqlBool>`cast(${sql.ref(column)} as jsonb) <@ cast(${JSON.stringify(ids)} as jsonb)`;
  }
  const outside = ids.length === 0 ? sql<SqlBool>`1 = 1` : sql<SqlBool>`scoped.value not in (${sql.join(ids)})`;
  return sql<SqlBool>`(${sql.ref(column)} <> '"*"' and not exists (select 1 from json_each(${sql.ref(column)}) as scoped where ${outside}))`;
}

/**
 * Every binding toolset `toolsetColumn` references (its rows in `toolset_bindings`, across all its
 * versions) lies in `scope`. A toolset that references none lies in every scope.
 */
export function toolsetBindingsInScope(toolsetColumn: string, scope: IdScope): RawBuilder<SqlBool> {
  if (scope === "*") return sql<SqlBool>`1 = 1`;
  const ids = [...new Set(scope)];
  const outside = ids.length === 0 ? sql<SqlBool>`1 = 1` : sql<SqlBool>`tb.binding_id not in (${sql.join(ids)})`;
  return sql<SqlBool>`not exists (select 1 from toolset_bindings as tb where tb.toolset_id = ${sql.ref(toolsetColumn)} and ${outside})`;
}
