// Bad input on every route of the OpenAPI document, generated (fast-check): whatever arrives — wrong
// IDs, junk query values, arbitrary or malformed JSON, the wrong content type — the server never
// answers 5xx, every refusal carries the error body of SPEC §9, and a refused request changes nothing
// stored (every table is compared before and after). The clock stands still, so no sweep changes
// anything meanwhile; the world holds real IDs of every kind, so requests also get past the lookups.

import fc from "fast-check";
import { expect, it } from "vitest";
import {
  admin,
  buildWorld,
  connect,
  expectStatus,
  listCalls,
  startClockedServer,
  startRun,
} from "../calls/calls-harness.js";
import { dumpTables } from "../support/table-dump.js";
import { describeEachDialect } from "../support/test-databases.js";
import type { Answer } from "./http-harness.js";

/** Requests per dialect: bounded, each one with a full table dump before it. */
const RUNS = Number(process.env.TOOLHOST_FUZZ_RUNS ?? 250);

const METHODS = ["get", "post", "put", "patch", "delete"] as const;

/** A generated body: its text (none when absent) and a content type other than JSON. */
interface BodyCase {
  text?: string;
  type?: string;
}

interface Operation {
  method: string;
  path: string;
  query: string[];
  bodyFields: string[];
  hasBody: boolean;
}

/** The operations of the served OpenAPI document, with their query parameters and body fields. */
// biome-ignore lint/suspicious/noExplicitAny: the OpenAPI document is read as plain JSON.
function operationsOf(spec: any): Operation[] {
  // biome-ignore lint/suspicious/noExplicitAny: as above.
  const resolve = (schema: any): any =>
    typeof schema?.$ref === "string" ? spec.components.schemas[schema.$ref.split("/").pop()] : schema;
  const operations: Operation[] = [];
  for (const [path, item] of Object.entries<Record<string, unknown>>(spec.paths)) {
    for (const method of METHODS) {
      // biome-ignore lint/suspicious/noExplicitAny: as above.
      const op = item[method] as any;
      if (op === undefined) continue;
      // An event stream stays open until its run ends (it is tested in test/models/events.test.ts).
      if (op.responses?.["200"]?.content?.["text/event-stream"] !== undefined) continue;
      // biome-ignore lint/suspicious/noExplicitAny: as above.
      const parameters: any[] = op.parameters ?? [];
      const body = resolve(op.requestBody?.content?.["application/json"]?.schema);
      operations.push({
        method: method.toUpperCase(),
        path,
        query: parameters.filter((p) => p.in === "query").map((p) => p.name as string),
        bodyFields: Object.keys(body?.properties ?? {}),
        hasBody: op.requestBody !== undefined,
      });
    }
  }
  return operations;
}

/** Raw bodies no JSON parser should let through, or that probe its limits. */
const MALFORMED_BODIES = [
  "{",
  "[1,",
  "nul",
  '{"a":1}x',
  "\u0000",
  "",
  '{"__proto__":{"polluted":true}}',
  '{"constructor":{"prototype":{"polluted":true}}}',
  `${"[".repeat(3000)}${"]".repeat(3000)}`,
  '{"a":1e999}',
  '{"a":"\\ud800"}',
  '"just a string"',
  "12345678901234567890123",
];

describeEachDialect("bad input on every route", (dialect) => {
  // Found by the property below: the grant key used to be created by the first claim or receipt,
  // even a refused one. It is stored at start-up now.
  it("a refused claim and a refused receipt before any claim change nothing", async () => {
    const server = await startClockedServer(dialect, { sweepIntervalMs: 60_000 });
    const world = await buildWorld(server, [{ message: "done" }]);
    const before = await dumpTables(server.database.url);
    expect(before.server_secrets?.length).toBe(1);
    const body = { executor_id: "nobody", connection_id: "conn_x" };
    const claim = await server.call("POST", "/v1/runs/run_x/tool-calls/call_x/claim", { ...admin, body });
    expect(claim.status, claim.text).toBe(404);
    const receipt = await server.call("POST", "/v1/runs/run_x/tool-calls/call_x/receipts", {
      key: world.executorKey,
      body: { ...body, claim_id: "clm_x", grant: "g", receipt_id: "r1", kind: "accepted" },
    });
    expect(receipt.status, receipt.text).toBeGreaterThanOrEqual(400);
    expect(receipt.status, receipt.text).toBeLessThan(500);
    expect(await dumpTables(server.database.url)).toEqual(before);
  });

  it(`never answers 5xx; refusals carry the error body and change nothing (${RUNS} generated requests)`, async () => {
    const server = await startClockedServer(dialect, { sweepIntervalMs: 60_000 });
    const world = await buildWorld(server, [{ tool_calls: [{ name: "tasks.write", arguments: { title: "t" } }] }]);
    const runId = await startRun(server, world);
    const callId = (await listCalls(server, runId))[0]?.call_id as string;
    const executor = await connect(server, world, "fuzz-executor");
    // A key the fuzz may revoke: never the bootstrap key every request is sent with.
    const victim = expectStatus(
      await server.call("POST", "/v1/keys", { ...admin, body: { name: "victim", scopes: ["runtime:read"] } }),
      201,
    );
    const spec = expectStatus(await server.call("GET", "/v1/openapi.json"), 200);
    const operations = operationsOf(spec);
    expect(operations.length).toBeGreaterThan(30);

    const realIds = [
      world.bindingId,
      world.agentId,
      world.agentVersion,
      world.toolsetId,
      world.sessionId,
      runId,
      callId,
      executor.executor_id,
      executor.connection_id,
      victim.key_id as string,
      "1",
    ];
    const junkIds = ["x", "%20", "%00", "中文", "a".repeat(300), "..", "%2F", "-1", "1e3", "0", "null", "💥"];
    const id = fc.constantFrom(...realIds, ...junkIds);
    const queryValue = fc.oneof(
      fc.constantFrom("-1", "0", "1", "2", "201", "1000000000000", "abc", "", "1.5", "30001", "%00"),
      fc.string({ maxLength: 12 }),
      id,
    );
    const fieldValue = fc.oneof(id, fc.jsonValue({ maxDepth: 2 }));
    const body = (op: Operation): fc.Arbitrary<BodyCase> =>
      fc.oneof(
        fc.constant<BodyCase>({}),
        fc.jsonValue({ maxDepth: 3 }).map((value) => ({ text: JSON.stringify(value) })),
        fc
          .subarray(op.bodyFields)
          .chain((fields) => fc.tuple(...fields.map(() => fieldValue)).map((values) => ({ fields, values })))
          .map(({ fields, values }) => ({
            text: JSON.stringify(Object.fromEntries(fields.map((f, i) => [f, values[i]]))),
          })),
        fc.constantFrom(...MALFORMED_BODIES).map((text) => ({ text })),
        fc.string({ maxLength: 20 }).map((text) => ({ text, type: "text/plain" })),
      );
    const request = fc.constantFrom(...operations).chain((op) =>
      fc.record({
        op: fc.constant(op),
        path: fc.tuple(...(op.path.match(/\{[^}]+\}/g) ?? []).map(() => id)),
        query: fc.subarray(op.query).chain((names) =>
          fc.tuple(...names.map(() => queryValue)).map((values) =>
            names
              // A valid long-poll would wait: keep wait_ms short (its refusals are tested elsewhere).
              .map((name, i) => [name, name === "wait_ms" ? String(Math.min(Number(values[i]) || 0, 20)) : values[i]])
              .map(([name, value]) => `${name}=${encodeURIComponent(value as string)}`)
              .join("&"),
          ),
        ),
        body: op.hasBody ? body(op) : fc.constant<BodyCase>({}),
      }),
    );

    let refused = 0;
    await fc.assert(
      fc.asyncProperty(request, async ({ op, path, query, body }) => {
        let i = 0;
        const url =
          op.path.replace(/\{[^}]+\}/g, () => encodeURIComponent(path[i++] as string)) + (query ? `?${query}` : "");
        const before = await dumpTables(server.database.url);
        const answer: Answer = await server.call(op.method, url, {
          ...admin,
          ...(body.text === undefined ? {} : { body: body.text }),
          ...(body.type === undefined ? {} : { headers: { "content-type": body.type } }),
        });
        const shown = `${op.method} ${url} ${body.text?.slice(0, 200) ?? ""} → ${answer.status} ${answer.text.slice(0, 300)}`;
        expect(answer.status, shown).toBeLessThan(500);
        if (answer.status >= 400) {
          refused++;
          expect(typeof answer.body?.error?.code, shown).toBe("string");
          expect(typeof answer.body?.error?.message, shown).toBe("string");
          expect(await dumpTables(server.database.url), shown).toEqual(before);
        }
      }),
      { numRuns: RUNS, endOnFailure: true },
    );
    // Most generated requests are refusals: the property is about them (over nine in ten are).
    expect(refused).toBeGreaterThan(RUNS / 4);
    // The bootstrap key still works: nothing revoked it.
    expectStatus(await server.call("GET", "/v1/keys?limit=1", admin), 200);
  }, 180_000);
});
