/**
 * Queries of one fixed shape, built and compiled once and then run with new values.
 *
 * Why: Kysely builds an operation tree and compiles it to SQL on every call — tens of microseconds for
 * the larger statements, and a tool-call cycle runs dozens of them. The hottest store methods always
 * produce the same SQL text with different values, so they define their statement once as a
 * ReusableQuery: on first use per dialect the builder runs with placeholders in place of the
 * arguments, and the compiled SQL and the placeholders' positions among its parameters are kept;
 * every later run only fills in the values (Kysely's "compile once, execute many" recipe). The SQL
 * and the parameters sent are exactly what the builder would have produced. On PostgreSQL the text
 * also runs as a named prepared statement (`postgres-prepared-statements.ts`).
 *
 * Rule for `build`: use every argument only as a value (in `where`, `set`, `values`, `limit`), never
 * to choose the query's shape; constants may be written freely. An argument that does not end up as
 * a parameter (used for the shape, or inlined into the SQL) is refused on first use.
 *
 * How the stores write SQL (docs/storage.md, "How the stores are written"): the Kysely builder by
 * default, so tables and columns are checked against the schema; `sql` fragments inside it only for
 * what it cannot say (status literals for partial indexes, counts, increments); a whole `sql`
 * statement only when the builder cannot express it (a data-modifying CTE, an INSERT from a VALUES
 * list). A hot statement of fixed text is a ReusableQuery whichever form builds it; one whose text
 * varies with its input stays a plain builder call.
 */

import { type Compilable, type CompiledQuery, createQueryId, type QueryResult, type RawBuilder } from "kysely";
import type { Dialect } from "../storage.js";
import { unanswered } from "./postgres-pipelined-driver.js";
import { registerPreparedStatement } from "./postgres-prepared-statements.js";
import type { Db } from "./store-context.js";

/** Stands for argument `index` while the query is built once. */
class Placeholder {
  constructor(readonly index: number) {}
}

/** Where each compiled parameter comes from: an argument (its index) or a constant of the query. */
type ParameterSource = number | { readonly constant: unknown };

interface Template {
  readonly sql: string;
  readonly query: CompiledQuery["query"];
  readonly sources: readonly ParameterSource[];
}

/** One fixed-shape statement, compiled once per dialect. */
export class ReusableQuery<A extends readonly unknown[], R> {
  readonly #build: (db: Db, ...args: A) => Compilable<R>;
  readonly #templates = new Map<Dialect, Template>();

  constructor(build: (db: Db, ...args: A) => Compilable<R>) {
    this.#build = build;
  }

  /** Runs the statement on `db` (a database of `dialect`) with `args`. */
  async execute(dialect: Dialect, db: Db, ...args: A): Promise<QueryResult<R>> {
    return db.executeQuery<R>(this.#compiled(dialect, db, args));
  }

  /**
   * Runs it for its effect only, its answer never read: inside a PostgreSQL transaction it is sent
   * without waiting and leaves with the next statement waited for (postgres-pipelined-driver.ts).
   */
  async send(dialect: Dialect, db: Db, ...args: A): Promise<void> {
    await db.executeQuery<R>(unanswered(this.#compiled(dialect, db, args)));
  }

  #compiled(dialect: Dialect, db: Db, args: A): CompiledQuery<R> {
    const template = this.#templates.get(dialect) ?? this.#compile(dialect, db, args.length);
    const parameters = template.sources.map((source) => (typeof source === "number" ? args[source] : source.constant));
    return { sql: template.sql, query: template.query, parameters, queryId: createQueryId() };
  }

  /** The first row the statement answers, as `executeTakeFirst()` would. */
  async takeFirst(dialect: Dialect, db: Db, ...args: A): Promise<R | undefined> {
    return (await this.execute(dialect, db, ...args)).rows[0];
  }

  /** How many rows the (non-returning) statement changed, as `numUpdatedRows`/`numInsertedOrUpdatedRows`. */
  async affected(dialect: Dialect, db: Db, ...args: A): Promise<bigint> {
    return (await this.execute(dialect, db, ...args)).numAffectedRows ?? 0n;
  }

  #compile(dialect: Dialect, db: Db, arity: number): Template {
    const placeholders = Array.from({ length: arity }, (_, index) => new Placeholder(index));
    const compiled = this.#build(db, ...(placeholders as unknown as A)).compile();
    const sources = compiled.parameters.map(
      (value): ParameterSource => (value instanceof Placeholder ? value.index : { constant: value }),
    );
    const used = new Set(sources.filter((source) => typeof source === "number"));
    if (used.size !== arity) {
      throw new Error(`a reusable query must pass each of its ${arity} arguments as a value: ${compiled.sql}`);
    }
    const template = { sql: compiled.sql, query: compiled.query, sources };
    if (dialect === "postgres") registerPreparedStatement(compiled.sql);
    this.#templates.set(dialect, template);
    return template;
  }
}

/**
 * A ReusableQuery whose values come as one object of named members, so two values of one type (a
 * call ID and a run ID) cannot trade places silently as positional arguments can. `names` lists every
 * member once; `build` may read only those, and must use each as a value.
 */
export class NamedReusableQuery<I extends object, R> {
  readonly #names: readonly (keyof I & string)[];
  readonly #query: ReusableQuery<unknown[], R>;

  constructor(names: readonly (keyof I & string)[], build: (db: Db, input: I) => Compilable<R>) {
    this.#names = names;
    this.#query = new ReusableQuery((db, ...values: unknown[]) => {
      const input = Object.fromEntries(names.map((name, index) => [name, values[index]]));
      const guarded = new Proxy(input, {
        get(target, name) {
          if (typeof name === "string" && !Object.hasOwn(target, name)) {
            throw new Error(`a named reusable query read "${name}", which is not among its names`);
          }
          return Reflect.get(target, name);
        },
      });
      return build(db, guarded as I);
    });
  }

  /** Runs the statement on `db` (a database of `dialect`) with `input`. */
  execute(dialect: Dialect, db: Db, input: I): Promise<QueryResult<R>> {
    return this.#query.execute(dialect, db, ...this.#values(input));
  }

  /** The first row the statement answers. */
  takeFirst(dialect: Dialect, db: Db, input: I): Promise<R | undefined> {
    return this.#query.takeFirst(dialect, db, ...this.#values(input));
  }

  /** How many rows the (non-returning) statement changed. */
  affected(dialect: Dialect, db: Db, input: I): Promise<bigint> {
    return this.#query.affected(dialect, db, ...this.#values(input));
  }

  /** Runs it for its effect only, its answer never read (`ReusableQuery.send`). */
  send(dialect: Dialect, db: Db, input: I): Promise<void> {
    return this.#query.send(dialect, db, ...this.#values(input));
  }

  #values(input: I): unknown[] {
    return this.#names.map((name) => input[name]);
  }
}

/**
 * A statement whose shape varies over a few forms — which columns a change sets, how many rows an
 * insert or an `IN` list has — as one ReusableQuery per form. The form is `shape` (plain JSON: its
 * text is the form's key, so two shapes that differ can never share a statement); `build` makes the
 * statement of a form with `values` in it, each used as a value, as ReusableQuery's rule says. At
 * most `maxShapes` forms are kept; one past them is built and compiled on each run, so a rare form
 * costs what every statement cost before, and never memory.
 */
export class ShapedReusableQuery<S, R> {
  readonly #maxShapes: number;
  readonly #build: (db: Db, shape: S, values: readonly unknown[]) => Compilable<R>;
  readonly #queries = new Map<string, ReusableQuery<unknown[], R>>();

  constructor(maxShapes: number, build: (db: Db, shape: S, values: readonly unknown[]) => Compilable<R>) {
    this.#maxShapes = maxShapes;
    this.#build = build;
  }

  /** Runs the form `shape` with `values` on `db` (a database of `dialect`). */
  execute(dialect: Dialect, db: Db, shape: S, values: readonly unknown[]): Promise<QueryResult<R>> {
    const query = this.#query(shape);
    if (query === undefined) return db.executeQuery(this.#build(db, shape, values).compile());
    return query.execute(dialect, db, ...values);
  }

  /** Runs it for its effect only, its answer never read (`ReusableQuery.send`). */
  async send(dialect: Dialect, db: Db, shape: S, values: readonly unknown[]): Promise<void> {
    const query = this.#query(shape);
    if (query === undefined) await db.executeQuery(unanswered(this.#build(db, shape, values).compile()));
    else await query.send(dialect, db, ...values);
  }

  /** The compiled form of `shape`; undefined once `maxShapes` are kept (it is then compiled each time). */
  #query(shape: S): ReusableQuery<unknown[], R> | undefined {
    const key = JSON.stringify(shape);
    let query = this.#queries.get(key);
    if (query === undefined) {
      if (this.#queries.size >= this.#maxShapes) return undefined;
      query = new ReusableQuery((built: Db, ...args: unknown[]) => this.#build(built, shape, args));
      this.#queries.set(key, query);
    }
    return query;
  }

  /** The first row the form answers. */
  async takeFirst(dialect: Dialect, db: Db, shape: S, values: readonly unknown[]): Promise<R | undefined> {
    return (await this.execute(dialect, db, shape, values)).rows[0];
  }

  /** How many forms are compiled (for tests). */
  get shapes(): number {
    return this.#queries.size;
  }
}

/**
 * The columns of `row` whose values are defined, in `columns` order, with those values: the form of
 * an insert or an update that leaves the other columns out, as Kysely's builder does with undefined.
 */
export function definedColumns<T extends object, K extends keyof T & string>(
  row: T,
  columns: readonly K[],
): { readonly names: K[]; readonly values: unknown[] } {
  const names: K[] = [];
  const values: unknown[] = [];
  for (const column of columns) {
    const value = row[column];
    if (value === undefined) continue;
    names.push(column);
    values.push(value);
  }
  return { names, values };
}

/** A `sql` template of `db` as a Compilable, so a reusable query's build can be one (its values as `${…}`). */
export function compilableSql<R>(db: Db, query: RawBuilder<R>): Compilable<R> {
  return { compile: () => query.compile(db) };
}
