/** Wire schema of `GET /v1/health`. */

import { type Static, Type } from "typebox";
import { WireObject } from "./common.js";

/** The liveness answer: the process serves HTTP. */
export const Health = WireObject("The server is up.", {
  status: Type.Literal("ok", { description: "Always `ok` when the server answers." }),
});

/** The liveness answer. */
export type Health = Static<typeof Health>;
