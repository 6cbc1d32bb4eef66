/**
 * The baseline of bench/http: a Fastify hello-world (no logging, no validation, one small JSON answer)
 * on 127.0.0.1 and a free port. Prints its URL on standard output; stops on SIGTERM or SIGINT.
 */

import Fastify from "fastify";

const app = Fastify({ logger: false });
app.get("/", async () => ({ hello: "world" }));
await app.listen({ host: "127.0.0.1", port: 0 });
const { port } = app.server.address();
process.stdout.write(`http://127.0.0.1:${port}\n`);
for (const signal of ["SIGTERM", "SIGINT"]) {
  process.once(signal, () => {
    app.close().then(() => process.exit(0));
  });
}
