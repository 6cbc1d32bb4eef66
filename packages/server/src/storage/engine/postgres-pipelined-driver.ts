/**
 * Kysely's PostgreSQL driver, with a transaction's statements pipelined where nothing waits for their
 * answers (pg's pipeline mode: a pooled client sends each statement at once, the answers come back in
 * order). A round trip costs the server a socket write and read and a wake-up of the PostgreSQL
 * backend — on the tool-call cycle about a quarter of the server's CPU went to those writes — so:
 *
 * - BEGIN is not waited for: it goes out in the same write as the transaction's first statement, and
 *   that statement's answer is read after BEGIN's.
 * - Writes whose answers no one reads (`unanswered`, sent by `ReusableQuery.send`: a turn's request record, a new run's
 *   row and calls, the history append and run events written just before the commit) are not waited
 *   for: they go out in one write with the next statement that is, at the latest with COMMIT.
 * - Nothing sent is ever forgotten: before any statement's answer is handed back, and before COMMIT's,
 *   every earlier answer is in. When one of them failed, that statement's error is what the caller gets
 *   (not the "current transaction is aborted" of the statements behind it), the transaction rolls back,
 *   and a COMMIT PostgreSQL answered with ROLLBACK is a failure too. So a transaction commits only when
 *   every statement of it succeeded, as without pipelining.
 *
 * Outside a transaction every statement is waited for (each is its own transaction). Round trips are
 * counted here (`StatementCounter.addRoundTrip`): a statement sent while nothing else of its connection
 * is on the way starts one.
 */

import {
  AbortedTransactionError,
  CompiledQuery,
  type DatabaseConnection,
  type Driver,
  type QueryResult,
  type TransactionSettings,
} from "kysely";
import type pg from "pg";
import type { StatementCounter } from "./statement-counter.js";

/** Statements marked `unanswered`: their answers are never read. */
const unansweredQueries = new WeakSet<CompiledQuery>();

/**
 * Marks `query` as one whose answer nobody reads (`ReusableQuery.send`): inside a PostgreSQL
 * transaction it is sent and not waited for, and resolves at once with no rows (a failure still fails
 * the transaction, at the next statement waited for or at COMMIT). Elsewhere (SQLite, outside a
 * transaction) it runs as usual. A mark, not a context (AsyncLocalStorage would put a hook on every
 * promise of the process under Node 20).
 */
export function unanswered<Q extends CompiledQuery>(query: Q): Q {
  unansweredQueries.add(query);
  return query;
}

/** The pg client settings of a pool whose clients pipeline (not in @types/pg yet). */
export const PIPELINE_CLIENT_CONFIG = { pipeline: true } as const;

const NO_ROWS: QueryResult<never> = { rows: [] };

const ignore = (): void => undefined;

/**
 * A pooled client's socket (pg's `Connection#stream`): corked while what is sent unwaited for (BEGIN,
 * unanswered writes) waits for the next statement that is waited for, so they leave in one write.
 */
interface Socket {
  cork?: () => void;
  uncork?: () => void;
}

/** A failure seen in an answer no one waited for. */
interface Failure {
  readonly error: unknown;
}

class PipelinedConnection implements DatabaseConnection {
  readonly client: pg.PoolClient;
  readonly #counter: StatementCounter;
  readonly #socket: Socket | undefined;
  /** Answers sent and not waited for yet, in the order sent; each settles without rejecting. */
  #pending: Array<Promise<void>> = [];
  /** The first failure among them (the transaction's cause of failure). */
  #failure: Failure | undefined;
  #onTheWay = 0;
  #corked = false;
  #inTransaction = false;
  /** A ROLLBACK failed: the client is dropped from the pool on release. */
  discard = false;

  constructor(client: pg.PoolClient, counter: StatementCounter) {
    this.client = client;
    this.#counter = counter;
    this.#socket = (client as unknown as { connection?: { stream?: Socket } }).connection?.stream;
  }

  async executeQuery<R>(query: CompiledQuery): Promise<QueryResult<R>> {
    if (this.#inTransaction && unansweredQueries.has(query)) {
      // Corked too: it leaves in one write with the statement that is waited for next (or COMMIT).
      this.#cork();
      this.#keep(this.#send(query.sql, query.parameters));
      return NO_ROWS;
    }
    const answer = this.#send(query.sql, query.parameters);
    this.#uncork();
    await this.#settlePending(answer);
    return resultOf<R>(await answer);
  }

  // biome-ignore lint/correctness/useYield: streaming is not offered (no cursor), as with Kysely's driver without one.
  async *streamQuery<R>(): AsyncIterableIterator<QueryResult<R>> {
    throw new Error("streaming PostgreSQL results is not supported by this driver");
  }

  begin(settings: TransactionSettings): void {
    let text = "begin";
    if (settings.isolationLevel !== undefined || settings.accessMode !== undefined) {
      text = "start transaction";
      if (settings.isolationLevel !== undefined) text += ` isolation level ${settings.isolationLevel}`;
      if (settings.accessMode !== undefined) text += ` ${settings.accessMode}`;
    }
    this.#inTransaction = true;
    // Corked: BEGIN leaves in the same write as the next statement (or COMMIT, or ROLLBACK).
    this.#cork();
    this.#keep(this.#sendControl(text));
  }

  async commit(): Promise<void> {
    const answer = this.#sendControl("commit");
    this.#inTransaction = false;
    this.#uncork();
    await this.#settlePending(answer);
    const result = await answer;
    // PostgreSQL answers COMMIT with ROLLBACK when an earlier statement left the transaction aborted.
    if (result.command === "ROLLBACK") throw new AbortedTransactionError();
  }

  async rollback(): Promise<void> {
    const answer = this.#sendControl("rollback");
    this.#inTransaction = false;
    this.#uncork();
    // The transaction's failure is already the caller's; what is pending only has to be in.
    await this.#settlePending(answer).catch(ignore);
    try {
      await answer;
    } catch (error) {
      this.discard = true;
      throw error;
    }
  }

  /** Waits for every answer still pending (never rejects); for a release after a failure. */
  async drain(): Promise<void> {
    await Promise.all(this.#pending.splice(0));
    this.#failure = undefined;
    this.#uncork();
  }

  /** BEGIN, COMMIT and ROLLBACK: counted as statements like the rest (the counting driver sees the rest). */
  #sendControl(text: string): Promise<pg.QueryResult> {
    this.#counter.add(CompiledQuery.raw(text));
    return this.#send(text, []);
  }

  #send(text: string, parameters: readonly unknown[]): Promise<pg.QueryResult> {
    if (this.#onTheWay === 0) this.#counter.addRoundTrip();
    this.#onTheWay++;
    const answer = this.client.query(text, parameters as unknown[]);
    const arrived = (): void => {
      this.#onTheWay--;
    };
    answer.then(arrived, arrived);
    return answer;
  }

  #keep(answer: Promise<pg.QueryResult>): void {
    this.#pending.push(
      answer.then(ignore, (error: unknown) => {
        this.#failure ??= { error };
      }),
    );
  }

  /** Waits for the answers sent before `next`; throws the first failure among them. */
  async #settlePending(next: Promise<unknown>): Promise<void> {
    if (this.#pending.length === 0) return;
    await Promise.all(this.#pending.splice(0));
    const failure = this.#failure;
    if (failure === undefined) return;
    this.#failure = undefined;
    // `next` failed too ("current transaction is aborted"): the earlier failure is the cause.
    next.catch(ignore);
    throw failure.error;
  }

  #cork(): void {
    if (this.#corked || this.#socket?.cork === undefined || this.#socket.uncork === undefined) return;
    this.#socket.cork();
    this.#corked = true;
  }

  #uncork(): void {
    if (!this.#corked) return;
    this.#corked = false;
    this.#socket?.uncork?.();
  }
}

function resultOf<R>(result: pg.QueryResult): QueryResult<R> {
  const { command, rowCount, rows } = result;
  if (command === "ROLLBACK" || command === "COMMIT") return { rows: [{ command } as R] };
  const changed = command === "INSERT" || command === "UPDATE" || command === "DELETE" || command === "MERGE";
  return {
    ...(changed ? { numAffectedRows: BigInt(rowCount ?? 0) } : {}),
    rows: (rows ?? []) as R[],
  };
}

function pipelined(connection: DatabaseConnection): PipelinedConnection {
  if (!(connection instanceof PipelinedConnection)) throw new Error("not a connection of this driver");
  return connection;
}

/** The driver: connections from `pool` (whose clients must pipeline: `PIPELINE_CLIENT_CONFIG`). */
export class PipelinedPostgresDriver implements Driver {
  readonly #pool: pg.Pool;
  readonly #counter: StatementCounter;
  readonly #connections = new WeakMap<pg.PoolClient, PipelinedConnection>();
  #destroyed = false;

  constructor(pool: pg.Pool, counter: StatementCounter) {
    this.#pool = pool;
    this.#counter = counter;
  }

  async init(): Promise<void> {}

  async acquireConnection(): Promise<DatabaseConnection> {
    const client = await this.#pool.connect();
    if (this.#destroyed) {
      client.release();
      throw new Error("driver has already been destroyed");
    }
    let connection = this.#connections.get(client);
    if (connection === undefined) {
      connection = new PipelinedConnection(client, this.#counter);
      this.#connections.set(client, connection);
    }
    return connection;
  }

  async beginTransaction(connection: DatabaseConnection, settings: TransactionSettings): Promise<void> {
    pipelined(connection).begin(settings);
  }

  commitTransaction(connection: DatabaseConnection): Promise<void> {
    return pipelined(connection).commit();
  }

  rollbackTransaction(connection: DatabaseConnection): Promise<void> {
    return pipelined(connection).rollback();
  }

  async savepoint(): Promise<void> {
    throw new Error("savepoints are not used on PostgreSQL");
  }

  async rollbackToSavepoint(): Promise<void> {
    throw new Error("savepoints are not used on PostgreSQL");
  }

  async releaseSavepoint(): Promise<void> {
    throw new Error("savepoints are not used on PostgreSQL");
  }

  async releaseConnection(connection: DatabaseConnection): Promise<void> {
    const own = pipelined(connection);
    await own.drain();
    own.client.release(own.discard);
    own.discard = false;
  }

  async destroy(): Promise<void> {
    if (this.#destroyed) return;
    this.#destroyed = true;
    await this.#pool.end();
  }
}
