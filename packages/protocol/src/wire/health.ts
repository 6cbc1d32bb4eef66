/** Wire schema of `GET /v1/health`. */

import { type Static, Type } from "typebox";
import { WireObject } from "./common.js";

/** The liveness answer: the process serves HTTP. */
export const Health = WireObject("The server is up.", {
  status: Type.Literal("ok", { description: "Always `ok` when the server answers." }),
});

/** The liveness answer. */
export type Health = Static<typeof Health>;

/** The readiness answer: the server can reach its storage (503 `storage_unavailable` when it cannot). */
export const Readiness = WireObject("The server can serve requests: its storage answers.", {
  status: Type.Literal("ready", { description: "Always `ready` in a 200 answer." }),
  storage: Type.Literal("available", { description: "The database answered a round trip just now." }),
});

/** The readiness answer. */
export type Readiness = Static<typeof Readiness>;
