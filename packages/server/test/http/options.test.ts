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
});
