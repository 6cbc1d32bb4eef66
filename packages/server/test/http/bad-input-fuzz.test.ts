// Bad input on every route of the OpenAPI document, generated (fast-check): whatever arrives — wrong
// IDs, junk query values and odd spellings of numbers (`Infinity`, `1e1`, `0x10`, ` 5`, `05`, a
// parameter given twice, `%00`), arbitrary or malformed JSON, numbers a double cannot hold, strings
// holding U+0000 or a lone surrogate inside otherwise valid bodies, a member given twice, the wrong
// content type — the server never answers 5xx, every refusal carries the error body of docs/http-api.md, and a
// refused request changes nothing stored (every table is compared before and after). The clock stands
// still, so no sweep changes anything meanwhile; the world holds real IDs of every kind, so requests
// also get past the lookups. It runs on both dialects (PostgreSQL text cannot hold U+0000).

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
  type World,
  worldTools,
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
      // A union (the receipt, by kind): the members of every variant.
      const variants: unknown[] = (body?.oneOf ?? []).map(resolve);
      operations.push({
        method: method.toUpperCase(),
        path,
        query: parameters.filter((p) => p.in === "query").map((p) => p.name as string),
        bodyFields: [
          // biome-ignore lint/suspicious/noExplicitAny: as above.
          ...new Set([body, ...variants].flatMap((schema: any) => Object.keys(schema?.properties ?? {}))),
        ],
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

/** Strings a raw text column cannot keep: U+0000 (PostgreSQL refuses it) and lone surrogates (UTF-8 cannot encode them). */
const HOSTILE_STRINGS = ["a\u0000b", "\u0000", "\ud800", "x\udc00y", "\udbff\u0000", "😀\ud83d"];

/** Number lexemes a double cannot hold exactly, or at all, written into bodies as they are. */
const ODD_NUMBERS = [
  "1e400",
  "-1e400",
  "-0",
  "1e-400",
  "-0.0",
  "1E+2",
  "123456789012345678901234567890",
  "9007199254740993",
];

/** Query values, already percent-encoded: odd spellings of numbers, NUL, spaces, signs, leading zeros. */
const ODD_QUERY_VALUES = [
  "Infinity",
  "-Infinity",
  "NaN",
  "1e1",
  "1e400",
  "0x10",
  "%205",
  "5%20",
  "+5",
  "%2B5",
  "-0",
  "05",
  "9007199254740993",
  "",
  "%00",
  "5%00",
  "1.5",
  "-1",
  "0",
  "1",
  "2",
  "201",
  "30001",
  "1000000000000",
];

/** Where a raw number lexeme goes in a serialized body (a string no generated value holds). */
const RAW_MARK = "\u0001raw\u0001";

/** A body text with `raw` in place of every RAW_MARK string. */
function withRaw(value: unknown, raw: string): string {
  return JSON.stringify(value).replaceAll(JSON.stringify(RAW_MARK), raw);
}

/** A valid request of a route that stores what it is sent, to be spoiled at one leaf. */
interface Template {
  method: string;
  path: string;
  body: unknown;
}

/** Valid bodies of the routes that store strings, built on the world's real IDs. */
function templatesOf(world: World, runCallId: string, executorId: string, connectionId: string): Template[] {
  const script = {
    provider: "scripted",
    script: [{ tool_calls: [{ name: "tasks.write", arguments: { title: "t" } }] }, { message: "m" }],
  };
  return [
    { method: "POST", path: "/v1/executor-bindings", body: { name: "fuzz binding" } },
    { method: "POST", path: "/v1/toolsets", body: { name: "fuzz toolset", tools: worldTools(world.bindingId) } },
    { method: "POST", path: `/v1/toolsets/${world.toolsetId}/versions`, body: { tools: worldTools(world.bindingId) } },
    { method: "POST", path: "/v1/agents", body: { name: "fuzz agent" } },
    {
      method: "POST",
      path: `/v1/agents/${world.agentId}/versions`,
      body: { toolset_id: world.toolsetId, toolset_version: 1, model: script, instructions: "be brief" },
    },
    { method: "POST", path: "/v1/sessions", body: { agent_version: world.agentVersion, subject: "user-7" } },
    { method: "POST", path: `/v1/sessions/${world.sessionId}/runs`, body: { input: { ask: "go", n: 1 } } },
    { method: "POST", path: "/v1/keys", body: { name: "fuzz key", scopes: ["runtime:read"] } },
    { method: "POST", path: "/v1/executors/connect", body: { executor_id: "fuzz-2", binding_ids: [world.bindingId] } },
    {
      method: "POST",
      path: "/v1/tools/dry-run",
      body: {
        agent_version: world.agentVersion,
        tool_name: "tasks.write",
        arguments: { title: "t" },
        mock_receipts: [{ receipt_id: "r", kind: "completed", result: { a: "b", n: 1 } }],
      },
    },
    {
      method: "POST",
      path: runCallId,
      body: {
        receipt_id: "r1",
        executor_id: executorId,
        claim_id: "clm_x",
        grant: "g",
        kind: "progress",
        progress: { p: 1 },
      },
    },
    {
      method: "POST",
      path: `/v1/executors/${executorId}/calls/report`,
      body: {
        connection_id: connectionId,
        calls: [{ call_id: "call_x", state: "pending_delivery", receipt_ids: ["r1"] }],
      },
    },
  ];
}

/** The JSON pointers of every string and number leaf of `value`. */
function leavesOf(value: unknown, pointer = ""): string[] {
  if (typeof value === "string" || typeof value === "number") return [pointer];
  if (value === null || typeof value !== "object") return [];
  return Object.entries(value).flatMap(([key, member]) => leavesOf(member, `${pointer}/${key}`));
}

/** A copy of `value` with the leaf at `pointer` replaced by `replacement`. */
function replaceLeaf(value: unknown, pointer: string, replacement: unknown): unknown {
  if (pointer === "") return replacement;
  const [head, ...rest] = pointer.slice(1).split("/");
  const copy = (Array.isArray(value) ? [...value] : { ...(value as object) }) as Record<string, unknown>;
  copy[head as string] = replaceLeaf(copy[head as string], rest.length === 0 ? "" : `/${rest.join("/")}`, replacement);
  return copy;
}

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
    const junkIds = [
      "x",
      "%20",
      "%00",
      "中文",
      "a".repeat(300),
      "..",
      "%2F",
      "-1",
      "1e3",
      "0",
      "null",
      "💥",
      "Infinity",
      "0x10",
    ];
    const id = fc.constantFrom(...realIds, ...junkIds);
    const hostile = fc.constantFrom(...HOSTILE_STRINGS);
    // Query values are percent-encoded text here (`%00` is a NUL, `+` a space).
    const queryValue = fc.oneof(
      { arbitrary: fc.constantFrom(...ODD_QUERY_VALUES), weight: 4 },
      fc.string({ maxLength: 12 }).map(encodeURIComponent),
      id.map(encodeURIComponent),
      // A lone surrogate has no UTF-8 form: its WTF-8 bytes (and an overlong NUL, a stray byte) instead.
      fc.constantFrom("a%00b", "%ED%A0%80", "x%ED%B0%80y", "%C0%80", "%FF"),
    );
    // A field's value as body text: JSON, a hostile string, or a number lexeme JSON.stringify cannot write.
    const fieldText = fc.oneof(
      fc
        .oneof(id, fc.jsonValue({ maxDepth: 2 }), hostile, fc.constant([{ deep: "\u0000" }]))
        .map((value) => JSON.stringify(value)),
      fc.constantFrom(...ODD_NUMBERS),
    );
    const body = (op: Operation): fc.Arbitrary<BodyCase> =>
      fc.oneof(
        fc.constant<BodyCase>({}),
        fc.jsonValue({ maxDepth: 3 }).map((value) => ({ text: JSON.stringify(value) })),
        fc
          .subarray(op.bodyFields)
          .chain((fields) => fc.tuple(...fields.map(() => fieldText)).map((texts) => ({ fields, texts })))
          .map(({ fields, texts }) => ({
            text: `{${fields.map((f, i) => `${JSON.stringify(f)}:${texts[i]}`).join(",")}}`,
          })),
        fc.constantFrom(...MALFORMED_BODIES).map((text) => ({ text })),
        fc.string({ maxLength: 20 }).map((text) => ({ text, type: "text/plain" })),
      );
    /** `name=value` pairs; sometimes the first parameter given twice. */
    const queryOf = (names: string[]): fc.Arbitrary<string> =>
      fc.tuple(fc.tuple(...names.map(() => queryValue)), queryValue, fc.boolean()).map(([values, again, repeat]) => {
        const pairs = names.map((name, i) => {
          const value = values[i] as string;
          // A valid long-poll would wait: keep a plain wait_ms short (odd spellings are refused at once).
          return [name, name === "wait_ms" && /^[0-9]+$/.test(value) ? String(Math.min(Number(value), 20)) : value];
        });
        if (repeat && names[0] !== undefined) pairs.push([names[0], again]);
        return pairs.map(([name, value]) => `${name}=${value}`).join("&");
      });
    const generated = fc.constantFrom(...operations).chain((op) =>
      fc
        .record({
          path: fc.tuple(...(op.path.match(/\{[^}]+\}/g) ?? []).map(() => id)),
          query: fc.subarray(op.query).chain(queryOf),
          body: op.hasBody ? body(op) : fc.constant<BodyCase>({}),
        })
        .map(({ path, query, body }) => {
          let i = 0;
          const url =
            op.path.replace(/\{[^}]+\}/g, () => encodeURIComponent(path[i++] as string)) + (query ? `?${query}` : "");
          return { method: op.method, url, body };
        }),
    );
    // Valid bodies spoiled at one leaf: a hostile string, an odd number lexeme, or a member given twice.
    const receiptsPath = `/v1/runs/${runId}/tool-calls/${callId}/receipts`;
    const templates = templatesOf(world, receiptsPath, executor.executor_id, executor.connection_id);
    const spoiled = fc.constantFrom(...templates).chain((template) =>
      fc
        .tuple(
          fc.constantFrom(...leavesOf(template.body)),
          fc.oneof(
            hostile.map((text) => ({ value: text as unknown, raw: "" })),
            fc.constantFrom(...ODD_NUMBERS).map((raw) => ({ value: RAW_MARK as unknown, raw })),
          ),
          fc.boolean(),
        )
        .map(([pointer, { value, raw }, twice]) => {
          let text = withRaw(replaceLeaf(template.body, pointer, value), raw);
          if (twice) text = `${text.slice(0, -1)},${text.slice(1)}`;
          return { method: template.method, url: template.path, body: { text } as BodyCase };
        }),
    );
    const request = fc.oneof({ arbitrary: generated, weight: 3 }, { arbitrary: spoiled, weight: 1 });

    let refused = 0;
    await fc.assert(
      fc.asyncProperty(request, async ({ method, url, body }) => {
        const before = await dumpTables(server.database.url);
        const answer: Answer = await server.call(method, url, {
          ...admin,
          ...(body.text === undefined ? {} : { body: body.text }),
          ...(body.type === undefined ? {} : { headers: { "content-type": body.type } }),
        });
        const shown = `${method} ${url} ${body.text?.slice(0, 200) ?? ""} → ${answer.status} ${answer.text.slice(0, 300)}`;
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
