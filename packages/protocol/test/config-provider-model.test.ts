// The openai and anthropic model settings: strict, defaults applied, every refusal at its pointer;
// they name an operator's model connection and never an endpoint or a key (base_url and api_key_env
// are refused at their pointer, no alias). The connections themselves: IDs, members, first bad entry.
import { describe, expect, it } from "vitest";
import {
  MAX_CONNECTIONS,
  PROVIDER_MODEL_LIMITS,
  validateModelConnections,
  validateModelSettings,
} from "../src/index.js";
import { expectProtocolError } from "./config-helpers.js";

const M = { provider: "openai", connection: "main", model: "m" };

describe("provider model settings", () => {
  it("accepts the documented openai and anthropic settings", () => {
    expect(
      validateModelSettings({
        provider: "openai",
        connection: "eu-openai",
        model: "gpt-4o",
        max_output_tokens: 1024,
        temperature: 0.2,
      }),
    ).toEqual({
      provider: "openai",
      connection: "eu-openai",
      model: "gpt-4o",
      max_output_tokens: 1024,
      temperature: 0.2,
    });
    expect(validateModelSettings({ provider: "anthropic", connection: "claude.v1_x-2", model: "claude-x" })).toEqual({
      provider: "anthropic",
      connection: "claude.v1_x-2",
      model: "claude-x",
      max_output_tokens: PROVIDER_MODEL_LIMITS.defaultOutputTokens,
      temperature: null,
    });
  });

  it.each([
    ["an endpoint of its own", { ...M, base_url: "http://127.0.0.1:9/v1" }, "unknown_field", "/model/base_url"],
    [
      "a key variable of its own",
      { ...M, api_key_env: "TOOLHOST_BOOTSTRAP_KEY" },
      "unknown_field",
      "/model/api_key_env",
    ],
    [
      "an endpoint and no connection",
      { provider: "anthropic", model: "m", base_url: "https://x" },
      "unknown_field",
      "/model/base_url",
    ],
    ["no connection", { provider: "openai", model: "m" }, "validation_failed", "/model/connection"],
    ["an uppercase connection", { ...M, connection: "Main" }, "validation_failed", "/model/connection"],
    ["a connection of 65 characters", { ...M, connection: "c".repeat(65) }, "validation_failed", "/model/connection"],
    ["a connection that is a number", { ...M, connection: 7 }, "validation_failed", "/model/connection"],
    ["an unknown member", { ...M, api_key: "sk" }, "unknown_field", "/model/api_key"],
    ["no model", { provider: "openai", connection: "main" }, "validation_failed", "/model/model"],
    ["an empty model", { ...M, provider: "anthropic", model: "" }, "validation_failed", "/model/model"],
    ["zero output tokens", { ...M, max_output_tokens: 0 }, "validation_failed", "/model/max_output_tokens"],
    ["fractional output tokens", { ...M, max_output_tokens: 1.5 }, "validation_failed", "/model/max_output_tokens"],
    ["a temperature over 2 (openai)", { ...M, temperature: 2.5 }, "validation_failed", "/model/temperature"],
    [
      "a temperature over 1 (anthropic)",
      { ...M, provider: "anthropic", temperature: 1.5 },
      "validation_failed",
      "/model/temperature",
    ],
    ["a negative temperature", { ...M, temperature: -0.1 }, "validation_failed", "/model/temperature"],
    ["a script on openai", { ...M, script: [] }, "unknown_field", "/model/script"],
  ])("refuses %s", (_what, input, code, pointer) => {
    expectProtocolError(() => validateModelSettings(input), code as "validation_failed", pointer);
  });

  it("says what replaced base_url and api_key_env", () => {
    expect(() => validateModelSettings({ ...M, api_key_env: "HOME" })).toThrow(/model connections in "connection"/);
  });
});

describe("model connections", () => {
  it("reads the declared connections; api_key_env is optional", () => {
    const connections = validateModelConnections({
      "eu-openai": { provider: "openai", base_url: "https://gateway.example/v1", api_key_env: "OPENAI_API_KEY" },
      "local.vllm_1": { provider: "openai", base_url: "http://127.0.0.1:8000/v1" },
      claude: { provider: "anthropic", base_url: "https://api.anthropic.com" },
    });
    expect([...connections]).toEqual([
      ["eu-openai", { provider: "openai", base_url: "https://gateway.example/v1", api_key_env: "OPENAI_API_KEY" }],
      ["local.vllm_1", { provider: "openai", base_url: "http://127.0.0.1:8000/v1", api_key_env: null }],
      ["claude", { provider: "anthropic", base_url: "https://api.anthropic.com", api_key_env: null }],
    ]);
    expect(validateModelConnections({}).size).toBe(0);
  });

  const ok = { provider: "openai", base_url: "https://x.example/v1" };
  it.each([
    ["not an object", [], ""],
    ["an uppercase ID", { Main: ok }, "/Main"],
    ["an ID starting with a dot", { ".x": ok }, "/.x"],
    ["an ID of 65 characters", { ["c".repeat(65)]: ok }, `/${"c".repeat(65)}`],
    ["a __proto__ ID", JSON.parse('{"__proto__":{"provider":"openai","base_url":"https://x/v1"}}'), "/__proto__"],
    ["an entry that is a string", { a: "https://x" }, "/a"],
    ["an unknown provider", { a: { ...ok, provider: "scripted" } }, "/a/provider"],
    ["no base_url", { a: { provider: "openai" } }, "/a/base_url"],
    ["a base_url that is not a URL", { a: { ...ok, base_url: "nope" } }, "/a/base_url"],
    ["a base_url of another scheme", { a: { ...ok, base_url: "file:///etc/passwd" } }, "/a/base_url"],
    ["a base_url with credentials", { a: { ...ok, base_url: "https://u:sk@x/v1" } }, "/a/base_url"],
    ["a base_url with a fragment", { a: { ...ok, base_url: "https://x/v1#" } }, "/a/base_url"],
    ["a base_url with a query", { a: { ...ok, base_url: "https://x/v1?k=1" } }, "/a/base_url"],
    ["an api_key_env with a space", { a: { ...ok, api_key_env: "MY KEY" } }, "/a/api_key_env"],
    ["an unknown member", { a: { ...ok, headers: {} } }, "/a/headers"],
    ["the second entry bad", { a: ok, b: { ...ok, provider: "x" } }, "/b/provider"],
  ])("refuses %s, at its pointer", (_what, input, pointer) => {
    const code = pointer.endsWith("/headers") ? "unknown_field" : "validation_failed";
    expectProtocolError(() => validateModelConnections(input), code, pointer);
  });

  it(`declares at most ${MAX_CONNECTIONS}`, () => {
    const many = Object.fromEntries(
      Array.from({ length: MAX_CONNECTIONS + 1 }, (_, i) => [
        `c${i}`,
        { provider: "openai", base_url: "https://x/v1" },
      ]),
    );
    expectProtocolError(() => validateModelConnections(many), "validation_failed", "");
  });
});
