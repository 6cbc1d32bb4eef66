// Model settings: the provider picks the validator; scripted settings are strict, with pointers.
import { describe, expect, it } from "vitest";
import { MAX_CONTEXT_TOKENS, MODEL_PROVIDERS, SCRIPTED_MODEL_LIMITS, validateModelSettings } from "../src/index.js";
import { expectProtocolError } from "./config-helpers.js";

const call = (name = "tasks.read", args: unknown = {}) => ({ name, arguments: args });

describe("validateModelSettings", () => {
  it("accepts a scripted model and answers a normalized copy", () => {
    const input = {
      provider: "scripted",
      script: [{ tool_calls: [call("a", { x: [1, "二"] }), call("b")] }, { message: "" }],
    };
    const settings = validateModelSettings(input);
    expect(settings).toEqual(input);
    expect(settings).not.toBe(input);
    if (settings.provider !== "scripted") throw new Error("expected scripted settings");
    expect(settings.script[0]).not.toBe(input.script[0]);
  });

  it("names the providers there are", () => {
    expect(Object.keys(MODEL_PROVIDERS)).toEqual(["scripted", "openai", "anthropic"]);
  });

  it.each([
    ["not an object", "scripted", "validation_failed", "/model"],
    ["null", null, "validation_failed", "/model"],
    ["no provider", { script: [] }, "validation_failed", "/model/provider"],
    ["an unknown provider", { provider: "gpt", model: "x" }, "validation_failed", "/model/provider"],
    ["a provider that is not text", { provider: 1 }, "validation_failed", "/model/provider"],
    [
      "an unknown settings field",
      { provider: "scripted", script: [{ message: "m" }], seed: 1 },
      "unknown_field",
      "/model/seed",
    ],
    ["no script", { provider: "scripted" }, "validation_failed", "/model/script"],
    ["an empty script", { provider: "scripted", script: [] }, "validation_failed", "/model/script"],
    ["a script that is not a list", { provider: "scripted", script: {} }, "validation_failed", "/model/script"],
    ["a step that is not an object", { provider: "scripted", script: ["go"] }, "validation_failed", "/model/script/0"],
    ["an empty step", { provider: "scripted", script: [{}] }, "validation_failed", "/model/script/0"],
    [
      "a step with both kinds",
      { provider: "scripted", script: [{ message: "m", tool_calls: [call()] }] },
      "validation_failed",
      "/model/script/0",
    ],
    [
      "an unknown step field",
      { provider: "scripted", script: [{ message: "m", delay: 1 }] },
      "unknown_field",
      "/model/script/0/delay",
    ],
    [
      "a message that is not text",
      { provider: "scripted", script: [{ message: 1 }] },
      "validation_failed",
      "/model/script/0/message",
    ],
    [
      "no tool calls",
      { provider: "scripted", script: [{ tool_calls: [] }] },
      "validation_failed",
      "/model/script/0/tool_calls",
    ],
    [
      "a call without a name",
      { provider: "scripted", script: [{ tool_calls: [{ arguments: {} }] }] },
      "validation_failed",
      "/model/script/0/tool_calls/0/name",
    ],
    [
      "an empty call name",
      { provider: "scripted", script: [{ tool_calls: [call("")] }] },
      "validation_failed",
      "/model/script/0/tool_calls/0/name",
    ],
    [
      "a call without arguments",
      { provider: "scripted", script: [{ tool_calls: [{ name: "a" }] }] },
      "validation_failed",
      "/model/script/0/tool_calls/0/arguments",
    ],
    [
      "arguments that are a list",
      { provider: "scripted", script: [{ tool_calls: [call("a", [])] }] },
      "validation_failed",
      "/model/script/0/tool_calls/0/arguments",
    ],
    [
      "an unknown call field",
      { provider: "scripted", script: [{ tool_calls: [{ ...call(), id: "c" }] }] },
      "unknown_field",
      "/model/script/0/tool_calls/0/id",
    ],
  ])("refuses %s", (_what, input, code, pointer) => {
    expectProtocolError(() => validateModelSettings(input), code as "validation_failed", pointer);
  });

  it("lists the known providers when refusing one", () => {
    const error = expectProtocolError(
      () => validateModelSettings({ provider: "gpt" }),
      "validation_failed",
      "/model/provider",
    );
    expect(error.details).toEqual({ allowed: ["scripted", "openai", "anthropic"] });
    expect(error.message).toContain('"gpt"');
  });

  it("enforces the script size limits", () => {
    const steps = Array.from({ length: SCRIPTED_MODEL_LIMITS.steps }, () => ({ message: "m" }));
    expect(
      (validateModelSettings({ provider: "scripted", script: steps }) as { script: unknown[] }).script,
    ).toHaveLength(SCRIPTED_MODEL_LIMITS.steps);
    expectProtocolError(
      () => validateModelSettings({ provider: "scripted", script: [...steps, { message: "m" }] }),
      "validation_failed",
      "/model/script",
    );
    const calls = Array.from({ length: SCRIPTED_MODEL_LIMITS.toolCallsPerStep + 1 }, () => call());
    expectProtocolError(
      () => validateModelSettings({ provider: "scripted", script: [{ tool_calls: calls }] }),
      "validation_failed",
      "/model/script/0/tool_calls",
    );
    const long = "n".repeat(SCRIPTED_MODEL_LIMITS.toolNameLength + 1);
    expectProtocolError(
      () => validateModelSettings({ provider: "scripted", script: [{ tool_calls: [call(long)] }] }),
      "validation_failed",
      "/model/script/0/tool_calls/0/name",
    );
  });

  it("uses the pointer it is given", () => {
    expectProtocolError(
      () => validateModelSettings({ provider: "x" }, "/body/model"),
      "validation_failed",
      "/body/model/provider",
    );
  });

  it("keeps the context window default inside its bounds", () => {
    expect(MAX_CONTEXT_TOKENS.min).toBeLessThanOrEqual(MAX_CONTEXT_TOKENS.default);
    expect(MAX_CONTEXT_TOKENS.default).toBeLessThanOrEqual(MAX_CONTEXT_TOKENS.max);
  });
});
