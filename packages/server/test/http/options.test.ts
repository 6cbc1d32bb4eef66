// compileServerOptions: defaults, environment variables, precedence, and clear errors.
import { describe, expect, it } from "vitest";
import { compileServerOptions, SERVER_DEFAULTS } from "../../src/options.js";

describe("compileServerOptions", () => {
  it("fills every default", () => {
    const options = compileServerOptions({}, {});
    expect(options).toMatchObject({
      databaseUrl: "sqlite:./toolhost.db",
      host: "127.0.0.1",
      port: 8080,
      bootstrapKey: null,
      bodyLimitBytes: 8 * 1024 * 1024,
      logLevel: "info",
      shutdownTimeoutMs: SERVER_DEFAULTS.shutdownTimeoutMs,
    });
  });

  it("reads the TOOLHOST_* environment", () => {
    const options = compileServerOptions(
      {},
      {
        TOOLHOST_DATABASE_URL: "postgres://u:p@db:5432/toolhost",
        TOOLHOST_HOST: "0.0.0.0",
        TOOLHOST_PORT: "9000",
        TOOLHOST_BOOTSTRAP_KEY: "s3cret-from-env",
        TOOLHOST_BODY_LIMIT_BYTES: "1024",
        TOOLHOST_LOG_LEVEL: "debug",
        TOOLHOST_SHUTDOWN_TIMEOUT_MS: "500",
      },
    );
    expect(options).toMatchObject({
      databaseUrl: "postgres://u:p@db:5432/toolhost",
      host: "0.0.0.0",
      port: 9000,
      bootstrapKey: "s3cret-from-env",
      bodyLimitBytes: 1024,
      logLevel: "debug",
      shutdownTimeoutMs: 500,
    });
  });

  it("lets explicit options beat the environment, and treats empty variables as unset", () => {
    const env = { TOOLHOST_PORT: "9000", TOOLHOST_HOST: "", TOOLHOST_BOOTSTRAP_KEY: "from-env" };
    const options = compileServerOptions({ port: 0 }, env);
    expect(options.port).toBe(0);
    expect(options.host).toBe("127.0.0.1");
    expect(options.bootstrapKey).toBe("from-env");
    expect(compileServerOptions({ bootstrapKey: null }, env).bootstrapKey).toBeNull();
  });

  it.each([
    [{ TOOLHOST_PORT: "80a" }, /TOOLHOST_PORT.*integer from 0 to 65535/],
    [{ TOOLHOST_PORT: "70000" }, /TOOLHOST_PORT/],
    [{ TOOLHOST_BODY_LIMIT_BYTES: "0" }, /TOOLHOST_BODY_LIMIT_BYTES/],
    [{ TOOLHOST_BODY_LIMIT_BYTES: "1.5" }, /TOOLHOST_BODY_LIMIT_BYTES/],
    [{ TOOLHOST_LOG_LEVEL: "loud" }, /TOOLHOST_LOG_LEVEL.*one of fatal, error/],
    [{ TOOLHOST_DATABASE_URL: "mysql://x" }, /TOOLHOST_DATABASE_URL.*unsupported database URL/],
    [{ TOOLHOST_HOST: "exa mple" }, /TOOLHOST_HOST/],
    [{ TOOLHOST_SHUTDOWN_TIMEOUT_MS: "-1" }, /TOOLHOST_SHUTDOWN_TIMEOUT_MS/],
  ])("refuses %j naming the variable", (env, message) => {
    expect(() => compileServerOptions({}, env)).toThrow(message);
  });

  it("reads metricsPerBinding and publicUrl (a base URL without query, trailing slash dropped)", () => {
    expect(compileServerOptions({}, {})).toMatchObject({ metricsPerBinding: false, publicUrl: null });
    const env = { TOOLHOST_METRICS_PER_BINDING: "true", TOOLHOST_PUBLIC_URL: "https://tools.example.com/api/" };
    expect(compileServerOptions({}, env)).toMatchObject({
      metricsPerBinding: true,
      publicUrl: "https://tools.example.com/api",
    });
    expect(compileServerOptions({ publicUrl: null }, env).publicUrl).toBeNull();
    for (const bad of ["ftp://x.example", "not a url", "https://x.example/?a=1", "https://x.example/#f"]) {
      expect(() => compileServerOptions({}, { TOOLHOST_PUBLIC_URL: bad })).toThrow(/TOOLHOST_PUBLIC_URL/);
    }
    expect(() => compileServerOptions({}, { TOOLHOST_METRICS_PER_BINDING: "yes" })).toThrow(
      /TOOLHOST_METRICS_PER_BINDING/,
    );
  });

  it("names the option when an explicit option is invalid", () => {
    expect(() => compileServerOptions({ port: -1 }, {})).toThrow(/option port/);
    expect(() => compileServerOptions({ bodyLimitBytes: 0.5 }, {})).toThrow(/option bodyLimitBytes/);
  });

  it("never echoes an invalid bootstrap key", () => {
    const secret = "has spaces in the secret";
    expect(() => compileServerOptions({}, { TOOLHOST_BOOTSTRAP_KEY: secret })).toThrow(/TOOLHOST_BOOTSTRAP_KEY/);
    try {
      compileServerOptions({}, { TOOLHOST_BOOTSTRAP_KEY: secret });
    } catch (error) {
      expect((error as Error).message).not.toContain(secret);
    }
  });

  it("bounds the database connect and query timeouts: defaults, environment, ranges", () => {
    expect(compileServerOptions({}, {})).toMatchObject({
      databaseConnectTimeoutMs: 5_000,
      databaseQueryTimeoutMs: 10_000,
    });
    const env = { TOOLHOST_DATABASE_CONNECT_TIMEOUT_MS: "1500", TOOLHOST_DATABASE_QUERY_TIMEOUT_MS: "2500" };
    expect(compileServerOptions({}, env)).toMatchObject({
      databaseConnectTimeoutMs: 1_500,
      databaseQueryTimeoutMs: 2_500,
    });
    expect(compileServerOptions({ databaseQueryTimeoutMs: 700 }, env).databaseQueryTimeoutMs).toBe(700);
    expect(() => compileServerOptions({}, { TOOLHOST_DATABASE_CONNECT_TIMEOUT_MS: "0" })).toThrow(
      /TOOLHOST_DATABASE_CONNECT_TIMEOUT_MS.*integer from 100/,
    );
    expect(() => compileServerOptions({ databaseQueryTimeoutMs: 5_000_000 }, {})).toThrow(
      /option databaseQueryTimeoutMs/,
    );
  });

  it("bounds the run and progress limits: defaults, environment, ranges", () => {
    expect(compileServerOptions({}, {})).toMatchObject({
      maxTurns: 100,
      maxToolCalls: 500,
      runTimeoutMs: 3_600_000,
      maxProgressPerCall: 100,
      maxProgressBytes: 65_536,
    });
    const env = {
      TOOLHOST_MAX_TURNS: "7",
      TOOLHOST_MAX_TOOL_CALLS: "40",
      TOOLHOST_RUN_TIMEOUT_MS: "90000",
      TOOLHOST_MAX_PROGRESS_PER_CALL: "0",
      TOOLHOST_MAX_PROGRESS_BYTES: "1024",
    };
    expect(compileServerOptions({}, env)).toMatchObject({
      maxTurns: 7,
      maxToolCalls: 40,
      runTimeoutMs: 90_000,
      maxProgressPerCall: 0,
      maxProgressBytes: 1_024,
    });
    expect(compileServerOptions({ maxTurns: 3 }, env).maxTurns).toBe(3);
    expect(() => compileServerOptions({}, { TOOLHOST_MAX_TURNS: "0" })).toThrow(/TOOLHOST_MAX_TURNS.*integer from 1/);
    expect(() => compileServerOptions({}, { TOOLHOST_MAX_TOOL_CALLS: "100001" })).toThrow(/TOOLHOST_MAX_TOOL_CALLS/);
    expect(() => compileServerOptions({}, { TOOLHOST_RUN_TIMEOUT_MS: "99" })).toThrow(/TOOLHOST_RUN_TIMEOUT_MS/);
    expect(() => compileServerOptions({ maxProgressBytes: 1 }, {})).toThrow(/option maxProgressBytes/);
  });

  it("keeps ended runs 30 days by default; TOOLHOST_RUN_RETENTION_MS sets it, 0 keeps everything", () => {
    expect(compileServerOptions({}, {}).runRetentionMs).toBe(30 * 86_400_000);
    expect(compileServerOptions({}, { TOOLHOST_RUN_RETENTION_MS: "3600000" }).runRetentionMs).toBe(3_600_000);
    expect(compileServerOptions({}, { TOOLHOST_RUN_RETENTION_MS: "0" }).runRetentionMs).toBe(0);
    expect(() => compileServerOptions({}, { TOOLHOST_RUN_RETENTION_MS: "-1" })).toThrow(/TOOLHOST_RUN_RETENTION_MS/);
    expect(() => compileServerOptions({ runRetentionMs: 1.5 }, {})).toThrow(/option runRetentionMs/);
  });
});
