// The openai and anthropic model settings: strict, defaults applied, every refusal at its pointer.
import { describe, expect, it } from "vitest";
import { PROVIDER_MODEL_LIMITS, validateModelSettings } from "../src/index.js";
import { expectProtocolError } from "./config-helpers.js";

describe("provider model settings", () => {
  it("accepts the documented openai and anthropic settings", () => {
    expect(
      validateModelSettings({
        provider: "openai",
        base_url: "https://gateway.example/v1",
        model: "gpt-4o",
        api_key_env: "OPENAI_API_KEY",
        max_output_tokens: 1024,
        temperature: 0.2,
      }),
    ).toEqual({
      provider: "openai",
      base_url: "https://gateway.example/v1",
      model: "gpt-4o",
      api_key_env: "OPENAI_API_KEY",
      max_output_tokens: 1024,
      temperature: 0.2,
    });
    expect(validateModelSettings({ provider: "anthropic", model: "claude-x" })).toEqual({
      provider: "anthropic",
      base_url: "https://api.anthropic.com",
      model: "claude-x",
      api_key_env: null,
      max_output_tokens: PROVIDER_MODEL_LIMITS.defaultOutputTokens,
      temperature: null,
    });
  });

  it.each([
    ["an unknown member", { provider: "openai", model: "m", api_key: "sk" }, "unknown_field", "/model/api_key"],
    ["no model", { provider: "openai" }, "validation_failed", "/model/model"],
    ["an empty model", { provider: "anthropic", model: "" }, "validation_failed", "/model/model"],
    [
      "a base URL that is not a URL",
      { provider: "openai", model: "m", base_url: "nope" },
      "validation_failed",
      "/model/base_url",
    ],
    [
      "a base URL of another scheme",
      { provider: "openai", model: "m", base_url: "ftp://x/v1" },
      "validation_failed",
      "/model/base_url",
    ],
    [
      "a base URL with a key in it",
      { provider: "openai", model: "m", base_url: "https://u:sk@x/v1" },
      "validation_failed",
      "/model/base_url",
    ],
    [
      "an env name with a space",
      { provider: "openai", model: "m", api_key_env: "MY KEY" },
      "validation_failed",
      "/model/api_key_env",
    ],
    [
      "an env name starting with a digit",
      { provider: "openai", model: "m", api_key_env: "1KEY" },
      "validation_failed",
      "/model/api_key_env",
    ],
    [
      "zero output tokens",
      { provider: "openai", model: "m", max_output_tokens: 0 },
      "validation_failed",
      "/model/max_output_tokens",
    ],
    [
      "fractional output tokens",
      { provider: "openai", model: "m", max_output_tokens: 1.5 },
      "validation_failed",
      "/model/max_output_tokens",
    ],
    [
      "a temperature over 2 (openai)",
      { provider: "openai", model: "m", temperature: 2.5 },
      "validation_failed",
      "/model/temperature",
    ],
    [
      "a temperature over 1 (anthropic)",
      { provider: "anthropic", model: "m", temperature: 1.5 },
      "validation_failed",
      "/model/temperature",
    ],
    [
      "a negative temperature",
      { provider: "openai", model: "m", temperature: -0.1 },
      "validation_failed",
      "/model/temperature",
    ],
    ["a script on openai", { provider: "openai", model: "m", script: [] }, "unknown_field", "/model/script"],
  ])("refuses %s", (_what, input, code, pointer) => {
    expectProtocolError(() => validateModelSettings(input), code as "validation_failed", pointer);
  });
});
