// The OpenAPI examples are real: the tour they were recorded from (`npm run openapi:examples`) runs
// again on a fresh server and answers the same (generated IDs, secrets and times aside), and every
// answer of the tour is one the document allows: its status listed for the operation, an error's
// code listed for that status, the body valid against the response schema.
import { Ajv2020 } from "ajv/dist/2020.js";
import addFormats from "ajv-formats";
import { beforeAll, expect, it } from "vitest";
import { tourExchanges } from "../../scripts/openapi-exchanges.mjs";
import { RECORDED_EXCHANGES, type RecordedExchange } from "../../src/http/openapi-examples.js";
import { describeEachDialect } from "../support/test-databases.js";
import { BOOTSTRAP_SECRET, startTestServer } from "./http-harness.js";

// biome-ignore lint/suspicious/noExplicitAny: the document is walked freely.
type Doc = any;

/**
 * Values a server makes anew each time: times, generated IDs, key secrets and grants. A grant is 43
 * base64url characters and may start or end with `-` or `_`, where `\b` finds no boundary: hence the
 * lookarounds (with `\b`, about one run in twenty failed on a grant starting with `-`).
 */
const VOLATILE =
  /\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z|\b[a-z]{2,5}_[A-Za-z0-9_-]{8,}|(?<![A-Za-z0-9_-])[A-Za-z0-9_-]{43}(?![A-Za-z0-9_-])/g;

/** Members that measure time taken (not generated values, not API behaviour). */
const TIMING = /(latency|duration|age)_ms$/;

/** Compares a recorded value with a live one; `seen` maps recorded volatile tokens to live ones. */
function compare(recorded: unknown, live: unknown, pointer: string, seen: Map<string, string>): string[] {
  if (typeof recorded === "string" && typeof live === "string") return compareText(recorded, live, pointer, seen);
  if (Array.isArray(recorded) && Array.isArray(live)) {
    if (recorded.length !== live.length) return [`${pointer}: ${recorded.length} items, now ${live.length}`];
    return recorded.flatMap((item, index) => compare(item, live[index], `${pointer}/${index}`, seen));
  }
  if (isObject(recorded) && isObject(live)) {
    const keys = Object.keys(recorded);
    if (keys.join() !== Object.keys(live).join()) return [`${pointer}: members ${keys} now ${Object.keys(live)}`];
    return keys.flatMap((key) =>
      // A measured duration may differ by a millisecond under load; it must still be a duration.
      TIMING.test(key) && typeof recorded[key] === "number" && typeof live[key] === "number"
        ? (live[key] as number) >= 0
          ? []
          : [`${pointer}/${key}: ${live[key]}`]
        : compare(recorded[key], live[key], `${pointer}/${key}`, seen),
    );
  }
  return Object.is(recorded, live) ? [] : [`${pointer}: ${JSON.stringify(recorded)} now ${JSON.stringify(live)}`];
}

function compareText(recorded: string, live: string, pointer: string, seen: Map<string, string>): string[] {
  const recordedTokens = recorded.match(VOLATILE) ?? [];
  const liveTokens = live.match(VOLATILE) ?? [];
  const same =
    recorded.replace(VOLATILE, "·") === live.replace(VOLATILE, "·") && recordedTokens.length === liveTokens.length;
  if (!same) return [`${pointer}: ${JSON.stringify(recorded)} now ${JSON.stringify(live)}`];
  const problems: string[] = [];
  recordedTokens.forEach((token, index) => {
    const now = liveTokens[index] as string;
    const known = seen.get(token);
    if (known === undefined) seen.set(token, now);
    else if (known !== now) problems.push(`${pointer}: ${token} stood for ${known}, now ${now}`);
  });
  return problems;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** The operation of the document an exchange belongs to. */
function operationOf(doc: Doc, exchange: RecordedExchange): Doc {
  for (const item of Object.values<Doc>(doc.paths)) {
    const operation = item[exchange.method.toLowerCase()];
    if (operation?.operationId === exchange.operationId) return operation;
  }
  throw new Error(`no operation ${exchange.operationId}`);
}

it("records an exchange for every JSON operation", () => {
  const recorded = new Set(RECORDED_EXCHANGES.map((exchange) => exchange.operationId));
  expect(recorded.size).toBeGreaterThanOrEqual(44);
  expect(RECORDED_EXCHANGES.some((exchange) => exchange.status >= 400)).toBe(true);
});

describeEachDialect("the recorded OpenAPI examples", (dialect) => {
  let live: RecordedExchange[];
  let doc: Doc;
  beforeAll(async () => {
    const server = await startTestServer(dialect);
    doc = (await server.call("GET", "/v1/openapi.json")).body;
    live = await tourExchanges(server.url, BOOTSTRAP_SECRET);
  }, 120_000);

  it("answer the same when replayed on a fresh server", () => {
    expect(live.map((exchange) => `${exchange.operationId} ${exchange.status}`)).toEqual(
      RECORDED_EXCHANGES.map((exchange) => `${exchange.operationId} ${exchange.status}`),
    );
    const seen = new Map<string, string>();
    const problems = RECORDED_EXCHANGES.flatMap((recorded, index) =>
      compare(recorded, live[index], `#${index} ${recorded.operationId}`, seen),
    );
    expect(problems).toEqual([]);
  });

  it("are answers the document allows", () => {
    const ajv = new Ajv2020({ strict: false, allErrors: true });
    addFormats.default(ajv);
    ajv.addSchema({ ...doc, $id: "openapi" });
    for (const exchange of live) {
      const operation = operationOf(doc, exchange);
      const response = operation.responses[String(exchange.status)];
      expect(response, `${exchange.operationId} answered ${exchange.status}`).toBeDefined();
      const media = response.content?.["application/json"];
      expect(media, `${exchange.operationId} ${exchange.status}`).toBeDefined();
      const pointer = [
        "paths",
        ...Object.entries<Doc>(doc.paths).flatMap(([path, item]) =>
          item[exchange.method.toLowerCase()] === operation ? [path] : [],
        ),
        exchange.method.toLowerCase(),
        "responses",
        String(exchange.status),
        "content",
        "application/json",
        "schema",
      ]
        .map((part) => part.replaceAll("~", "~0").replaceAll("/", "~1"))
        .join("/");
      const validate = ajv.compile({ $ref: `openapi#/${pointer}` });
      expect(
        validate(exchange.response),
        `${exchange.operationId} ${exchange.status}: ${ajv.errorsText(validate.errors)}`,
      ).toBe(true);
    }
  });
});
