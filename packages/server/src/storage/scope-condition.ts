/** The SQL condition of an agent or binding scope, so scope filtering happens in the WHERE clause. */

import { type RawBuilder, type SqlBool, sql } from "kysely";
import type { IdScope } from "./records.js";

/** `column` lies in `scope`: always for `"*"`, never for an empty list, else `column IN (…)`. */
export function inScope(column: string, scope: IdScope): RawBuilder<SqlBool> {
  if (scope === "*") return sql<SqlBool>`1 = 1`;
  if (scope.length === 0) return sql<SqlBool>`1 = 0`;
  return sql<SqlBool>`${sql.ref(column)} in (${sql.join([...new Set(scope)])})`;
}
