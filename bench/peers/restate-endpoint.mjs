/**
 * The Restate service endpoint of bench/peers, run under Node 24 (the SDK needs Node ≥ 22) and forked
 * with an IPC channel by restate-peer.mjs: `node24 restate-endpoint.mjs`. One service, `Bench`, whose
 * handler `step` does one journaled `ctx.run` side effect and returns its result, so an invocation is
 * Restate's smallest durable step: the invocation is journaled, the side effect's result is journaled
 * (fsynced by restate-server before the handler goes on), the output is journaled. Serves HTTP/2 on a
 * free 127.0.0.1 port and answers `{ type: "ready", port }`; with `{ type: "report-seen", on: true }`
 * it tells its parent `{ type: "seen" }` whenever a handler starts (the idle wake-up samples only).
 * Exits when its parent goes (the IPC channel closes).
 */

import http2 from "node:http2";
import * as restate from "@restatedev/restate-sdk";

let reportSeen = false;

const bench = restate.service({
  name: "Bench",
  handlers: {
    async step(ctx, input) {
      if (reportSeen) process.send?.({ type: "seen" });
      return ctx.run("side effect", async () => ({ done: true, ask: input?.ask ?? null }));
    },
  },
});

const server = http2.createServer(restate.createEndpointHandler({ services: [bench] }));
server.listen(0, "127.0.0.1", () => {
  const address = server.address();
  process.send?.({ type: "ready", port: typeof address === "object" && address !== null ? address.port : 0 });
});
process.on("message", (message) => {
  if (message?.type === "report-seen") reportSeen = message.on === true;
});
process.on("disconnect", () => process.exit(0));
