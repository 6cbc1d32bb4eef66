// Logging never writes secrets; options are checked before anything opens.
import { describe, expect, it } from "vitest";
import { RunnerError } from "../src/errors.js";
import { isRedactedFieldName, jsonLinesLogger, REDACTED, redactFields, redactingLogger } from "../src/logger.js";
import { compileRunnerOptions, RUNNER_DEFAULTS } from "../src/options.js";

const base = {
  baseUrl: "http://127.0.0.1:8080/",
  apiKey: "thk_secret_value",
  executorId: "exec-1",
  bindingIds: ["b1", "b1"],
  journalPath: "/tmp/j.db",
  logger: "silent" as const,
};

describe("logging", () => {
  it("writes JSON lines with secret-named fields redacted, nested too", () => {
    const lines: string[] = [];
    const logger = redactingLogger(jsonLinesLogger("debug", (line) => lines.push(line)));
    logger.info("claimed", { callId: "c1", grant: "g-123", nested: { apiKey: "k", authorization: "Bearer x" } });
    expect(lines).toHaveLength(1);
    const record = JSON.parse(lines[0] ?? "") as Record<string, unknown>;
    expect(record).toMatchObject({ level: "info", msg: "claimed", callId: "c1", grant: REDACTED });
    expect(record.nested).toEqual({ apiKey: REDACTED, authorization: REDACTED });
    expect(lines[0]).not.toContain("g-123");
  });

  it("redacts by exact field name, not by substring", () => {
    const lines: string[] = [];
    const logger = redactingLogger(jsonLinesLogger("debug", (line) => lines.push(line)));
    logger.info("request", {
      max_tokens: 256,
      secretary: "Ada",
      grantee: "team",
      api_key: "k1",
      "API-KEY": "k2",
      access_token: "t1",
      client_secret: "s1",
    });
    const record = JSON.parse(lines[0] ?? "") as Record<string, unknown>;
    expect(record).toMatchObject({ max_tokens: 256, secretary: "Ada", grantee: "team" });
    for (const name of ["api_key", "API-KEY", "access_token", "client_secret"]) expect(record[name]).toBe(REDACTED);
    expect(isRedactedFieldName("apiKey")).toBe(true);
    expect(isRedactedFieldName("tokens")).toBe(false);
  });

  it("keeps an error's stack and cause", () => {
    const cause = new Error("socket hang up");
    const fields = redactFields({ error: new Error("handler failed", { cause }) });
    const error = fields.error as { message: string; stack: string; cause: { message: string } };
    expect(error.message).toBe("handler failed");
    expect(error.stack).toContain("logger-options.test.ts");
    expect(error.cause.message).toBe("socket hang up");
  });

  it("filters by level", () => {
    const lines: string[] = [];
    const logger = jsonLinesLogger("warn", (line) => lines.push(line));
    logger.info("hidden");
    logger.debug("hidden");
    logger.warn("shown");
    expect(lines.map((line) => (JSON.parse(line) as { msg: string }).msg)).toEqual(["shown"]);
  });
});

describe("compileRunnerOptions", () => {
  it("fills defaults, trims the base URL and removes duplicate bindings", () => {
    const compiled = compileRunnerOptions(base);
    expect(compiled).toMatchObject({
      baseUrl: "http://127.0.0.1:8080",
      bindingIds: ["b1"],
      pollWaitMs: RUNNER_DEFAULTS.pollWaitMs,
      maxConcurrencyPerTool: RUNNER_DEFAULTS.maxConcurrencyPerTool,
      agentIds: null,
    });
    expect(compiled.operationKey({ runId: "r", callId: "c" } as never)).toBe("r:c");
  });

  it("names the option at fault", () => {
    for (const [patch, option] of [
      [{ baseUrl: "ftp://x" }, "baseUrl"],
      [{ apiKey: "has space" }, "apiKey"],
      [{ executorId: "-bad" }, "executorId"],
      [{ bindingIds: [] }, "bindingIds"],
      [{ pollWaitMs: 30_001 }, "pollWaitMs"],
      [{ retryBackoffMinMs: 500, retryBackoffMaxMs: 100 }, "retryBackoffMaxMs"],
      [{ logger: "loud" }, "logger"],
      [{ logger: { info: () => undefined } }, "logger"],
      [{ connectTimeoutMs: 0 }, "connectTimeoutMs"],
      [{ exitWhenFenced: "yes" }, "exitWhenFenced"],
    ] as const) {
      try {
        compileRunnerOptions({ ...base, ...patch } as never);
        throw new Error(`expected ${option} to be refused`);
      } catch (error) {
        expect(error).toBeInstanceOf(RunnerError);
        expect((error as RunnerError).details?.option).toBe(option);
        expect((error as RunnerError).message).not.toContain("thk_secret_value");
      }
    }
  });
});
