/**
 * Wire schema of `GET /v1/executors`: the executors an operator may see (every binding of their
 * current connection in the credential's binding scope), with their connection, lease and the tools
 * they declared, for the console's executors page and for diagnostics by hand.
 */

import { type Static, Type } from "typebox";
import { Id, Nullable, Page, Timestamp, WireObject } from "./common.js";

/** One executor and its current connection. */
export const ExecutorSummary = WireObject(
  "An executor (a stable ID chosen by the product) and its current connection.",
  {
    executor_id: Id("The executor's stable ID."),
    connection_id: Id("Its current connection."),
    epoch: Type.Integer({ description: "1 on the first connect, one more on every reconnect.", minimum: 1 }),
    binding_ids: Type.Array(Id("An executor binding's ID."), { description: "The bindings the connection serves." }),
    online: Type.Boolean({
      description: "True while the connection is live: not detached and its lease not lapsed.",
    }),
    connected_at: Timestamp("When the current connection was made."),
    last_heartbeat_at: Timestamp("Its latest heartbeat (the connect counts as one)."),
    lease_expires_at: Timestamp("It goes (or went) offline then without another heartbeat."),
    disconnected_at: Nullable(
      Timestamp("When it went offline."),
      "When it detached or its lease was swept; null while online.",
    ),
    tool_names: Type.Optional(
      Type.Array(Type.String({ description: "A tool name." }), {
        description: "The tools the executor declared it serves when it connected; absent when it declared none.",
      }),
    ),
  },
);

/** One executor. */
export type ExecutorSummary = Static<typeof ExecutorSummary>;

/** `GET /v1/executors` answer. */
export const ExecutorList = Page("Executors in the credential's binding scope, by executor ID.", ExecutorSummary);

/** `GET /v1/executors` answer. */
export type ExecutorList = Static<typeof ExecutorList>;
