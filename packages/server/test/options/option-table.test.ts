// The option declarations hold together, and compileServerOptions follows them for every option: names
// carry their unit, defaults are in bounds, bounds are enforced naming the variable, and the derived
// types are what callers write against.
import type { ModelConnections } from "@toolhost/protocol";
import type { DestinationStream } from "pino";
import { describe, expect, expectTypeOf, it } from "vitest";
import type { ModelConnectionsInput } from "../../src/models/connections-option.js";
import { type IntegerKind, showInteger } from "../../src/options/option-kinds.js";
import type { AnyOptionSpec } from "../../src/options/server-option-table.js";
import {
  type CompiledServerOptions,
  compileServerOptions,
  SERVER_DEFAULTS,
  SERVER_ENV,
  SERVER_OPTION_TABLE,
  type ServerOptions,
} from "../../src/options.js";

const OPTIONS = Object.entries(SERVER_OPTION_TABLE) as Array<[string, AnyOptionSpec]>;

/** The integer options, with their bounds. */
const INTEGER_OPTIONS = OPTIONS.flatMap(([name, spec]) =>
  "unit" in spec.kind ? [{ name, env: spec.env as string, kind: spec.kind as IntegerKind }] : [],
);

/** An environment where `headersTimeoutMs` may take any value (it must not exceed the request timeout). */
const ROOMY = { TOOLHOST_REQUEST_TIMEOUT_MS: "3600000" };

describe("the server option table", () => {
  it("names carry their unit, and only options in that unit carry it", () => {
    for (const { name, kind } of INTEGER_OPTIONS) {
      expect(name.endsWith("Ms"), name).toBe(kind.unit === "ms");
      expect(name.endsWith("Bytes"), name).toBe(kind.unit === "bytes");
    }
    expect(INTEGER_OPTIONS.length).toBeGreaterThan(25);
  });

  it("gives every option but logDestination its own TOOLHOST_ variable", () => {
    const variables = Object.values(SERVER_ENV);
    expect(new Set(variables).size).toBe(variables.length);
    for (const variable of variables) expect(variable).toMatch(/^TOOLHOST_[A-Z0-9_]+$/);
    expect(OPTIONS.filter(([, spec]) => spec.env === null).map(([name]) => name)).toEqual(["logDestination"]);
    expect(Object.keys(SERVER_ENV)).toEqual(OPTIONS.filter(([, spec]) => spec.env !== null).map(([name]) => name));
  });

  it("declares defaults its own kind accepts, and SERVER_DEFAULTS is them", () => {
    for (const [name, spec] of OPTIONS) {
      expect(SERVER_DEFAULTS[name as keyof typeof SERVER_DEFAULTS], name).toBe(spec.default);
      if (typeof spec.default === "number") expect(spec.kind.parse(spec.default, {}), name).toMatchObject({ ok: true });
    }
    expect(compileServerOptions({}, {})).toEqual(SERVER_DEFAULTS);
  });

  it.each(INTEGER_OPTIONS)(
    "$env: takes its bounds, refuses one past them, naming the variable",
    ({ name, env, kind }) => {
      const compiledFrom = (text: string) =>
        compileServerOptions({}, { ...ROOMY, [env]: text })[name as keyof CompiledServerOptions];
      expect(compiledFrom(String(kind.min))).toBe(kind.min);
      expect(compiledFrom(` ${kind.max} `)).toBe(kind.max);
      expect(() => compiledFrom(String(kind.max + 1))).toThrow(
        `environment variable ${env}: must be an integer from ${kind.min} to ${kind.max}, got "${kind.max + 1}"`,
      );
      if (kind.min > 0) expect(() => compiledFrom(String(kind.min - 1))).toThrow(`environment variable ${env}:`);
      expect(() => compileServerOptions({ [name]: kind.min + 0.5 }, ROOMY)).toThrow(
        `option ${name}: must be an integer`,
      );
    },
  );

  it("reads an explicit null as none without reading the variable, where null means none", () => {
    const env = {
      TOOLHOST_BOOTSTRAP_KEY: "from-the-environment",
      TOOLHOST_PUBLIC_URL: "https://tools.example.com",
      TOOLHOST_CONSOLE_DIR: "/srv/console",
    };
    expect(compileServerOptions({}, env)).toMatchObject({
      bootstrapKey: "from-the-environment",
      publicUrl: "https://tools.example.com",
      consoleDirectory: "/srv/console",
    });
    expect(compileServerOptions({ bootstrapKey: null, publicUrl: null, consoleDirectory: null }, env)).toMatchObject({
      bootstrapKey: null,
      publicUrl: null,
      consoleDirectory: null,
    });
    // Elsewhere null is a wrong value like any other.
    expect(() => compileServerOptions({ port: null } as unknown as ServerOptions, {})).toThrow(/option port/);
  });

  it("keeps the log destination an option of code only, and checks it is a stream", () => {
    const destination = { write: () => undefined };
    expect(compileServerOptions({ logDestination: destination }, {}).logDestination).toBe(destination);
    expect(compileServerOptions({}, {}).logDestination).toBeUndefined();
    expect(() => compileServerOptions({ logDestination: "stderr" } as unknown as ServerOptions, {})).toThrow(
      /option logDestination: must be a stream/,
    );
  });

  it("shortens the unset headers timeout to the request timeout, and refuses a longer one set", () => {
    expect(compileServerOptions({ requestTimeoutMs: 4_000 }, {}).headersTimeoutMs).toBe(4_000);
    expect(compileServerOptions({ requestTimeoutMs: 4_000, headersTimeoutMs: 3_000 }, {}).headersTimeoutMs).toBe(3_000);
    expect(() => compileServerOptions({ requestTimeoutMs: 4_000, headersTimeoutMs: 5_000 }, {})).toThrow(
      "option headersTimeoutMs: must not exceed the request timeout (4000 ms), got 5000",
    );
  });

  it("shows integers in the largest unit that divides them", () => {
    expect(showInteger(30 * 86_400_000, "ms")).toBe("30 days");
    expect(showInteger(86_400_000, "ms")).toBe("1 day");
    expect(showInteger(900_000, "ms")).toBe("15 min");
    expect(showInteger(1_500, "ms")).toBe("1,500 ms");
    expect(showInteger(0, "ms")).toBe("0 ms");
    expect(showInteger(8 * 1024 * 1024, "bytes")).toBe("8 MiB");
    expect(showInteger(1, "bytes")).toBe("1 byte");
    expect(showInteger(100_000, "count")).toBe("100,000");
    expect(showInteger(65_535, "number")).toBe("65535");
  });

  it("derives the option types callers write against", () => {
    expectTypeOf<ServerOptions["port"]>().toEqualTypeOf<number | undefined>();
    expectTypeOf<ServerOptions["bootstrapKey"]>().toEqualTypeOf<string | null | undefined>();
    expectTypeOf<ServerOptions["modelConnections"]>().toEqualTypeOf<ModelConnectionsInput | undefined>();
    expectTypeOf<ServerOptions["logDestination"]>().toEqualTypeOf<DestinationStream | undefined>();
    expectTypeOf<CompiledServerOptions["port"]>().toEqualTypeOf<number>();
    expectTypeOf<CompiledServerOptions["logLevel"]>().toEqualTypeOf<
      "fatal" | "error" | "warn" | "info" | "debug" | "trace" | "silent"
    >();
    expectTypeOf<CompiledServerOptions["bootstrapKey"]>().toEqualTypeOf<string | null>();
    expectTypeOf<CompiledServerOptions["consoleDirectory"]>().toEqualTypeOf<string | null>();
    expectTypeOf<CompiledServerOptions["logDestination"]>().toEqualTypeOf<DestinationStream | undefined>();
    expectTypeOf<CompiledServerOptions["modelConnections"]>().toEqualTypeOf<ModelConnections>();
    expectTypeOf<(typeof SERVER_ENV)["consoleDirectory"]>().toEqualTypeOf<"TOOLHOST_CONSOLE_DIR">();
    expectTypeOf<typeof SERVER_ENV>().not.toHaveProperty("logDestination");
  });
});
