/**
 * Server options: what the caller may set (all optional), and their compiled form with every default
 * filled in, both derived from the one declaration in options/server-option-table.ts. Precedence: an
 * explicit option, then its `TOOLHOST_*` environment variable, then the default. An empty environment
 * variable counts as unset. Invalid values throw an Error naming the option or variable, before
 * anything starts.
 */

import type { OptionEnv, OptionKind } from "./options/option-kinds.js";
import { type AnyOptionSpec, type OptionSpec, SERVER_OPTION_TABLE } from "./options/server-option-table.js";

export { BUNDLED_CONSOLE_DIRECTORY } from "./options/console-directory.js";
export {
  BEARER_TOKEN_PATTERN,
  MAX_BOOTSTRAP_KEY_LENGTH,
  MAX_PUBLIC_URL_LENGTH,
} from "./options/server-option-kinds.js";
export {
  LOG_LEVELS,
  type LogLevel,
  MAX_BODY_LIMIT_BYTES,
  MAX_RUN_RETENTION_MS,
  MIN_CONNECTION_IDLE_TIMEOUT_MS,
  SERVER_OPTION_TABLE,
} from "./options/server-option-table.js";

type Table = typeof SERVER_OPTION_TABLE;

/** What a caller may pass for one option: its kind's input, or null where null means none. */
type InputOf<Spec> =
  Spec extends OptionSpec<infer Input, infer _Value, infer _Default, infer Nullable, infer _Env>
    ? Input | (Nullable extends true ? null : never)
    : never;

/** One option's compiled value: its kind's value, its default's type, null where null means none. */
type ValueOf<Spec> =
  Spec extends OptionSpec<infer _Input, infer Value, infer Default, infer Nullable, infer _Env>
    ? Value | Default | (Nullable extends true ? null : never)
    : never;

/** What a caller may set; every field is optional (docs/operations.md#server-settings says what each does). */
export type ServerOptions = { -readonly [Name in keyof Table]?: InputOf<Table[Name]> };

/** Server options with every default applied and every value checked. */
export type CompiledServerOptions = { readonly [Name in keyof Table]: ValueOf<Table[Name]> };

/** The default of every option. */
export const SERVER_DEFAULTS = Object.fromEntries(
  Object.entries(SERVER_OPTION_TABLE).map(([name, spec]) => [name, spec.default]),
) as { readonly [Name in keyof Table]: Table[Name]["default"] };

/** The names of the options that have an environment variable. */
type EnvOptionName = { [Name in keyof Table]: Table[Name]["env"] extends string ? Name : never }[keyof Table];

/** The environment variable of each option that has one. */
export const SERVER_ENV = Object.fromEntries(
  Object.entries(SERVER_OPTION_TABLE).flatMap(([name, spec]) => (spec.env === null ? [] : [[name, spec.env]])),
) as { readonly [Name in EnvOptionName]: Table[Name]["env"] };

/** Where a raw value came from, for error messages. */
interface Source {
  readonly label: string;
  readonly raw: unknown;
}

/** Checks `options`, fills defaults from `env` and then from SERVER_DEFAULTS. */
export function compileServerOptions(options: ServerOptions = {}, env: OptionEnv = process.env): CompiledServerOptions {
  const compiled: Record<string, unknown> = {};
  const sources: Record<string, Source | undefined> = {};
  // Table order: the first invalid option in it is the one reported.
  for (const [name, spec] of Object.entries(SERVER_OPTION_TABLE) as Array<[keyof Table, AnyOptionSpec]>) {
    const explicit: unknown = options[name];
    if (explicit === null && spec.nullable) {
      compiled[name] = null;
      continue;
    }
    const source = sourceOf(name, spec, explicit, env);
    sources[name] = source;
    compiled[name] = source === undefined ? spec.default : parsedValueOf(spec.kind, source, env);
  }
  const headers = headersTimeoutOf(
    compiled.requestTimeoutMs as number,
    compiled.headersTimeoutMs as number,
    sources.headersTimeoutMs,
  );
  compiled.headersTimeoutMs = headers;
  return compiled as CompiledServerOptions;
}

/** The explicit option, else its variable when set and not empty, else nothing. */
function sourceOf(name: string, spec: AnyOptionSpec, explicit: unknown, env: OptionEnv): Source | undefined {
  if (explicit !== undefined) return { label: `option ${name}`, raw: explicit };
  if (spec.env === null) return undefined;
  const text = env[spec.env];
  if (text === undefined || text === "") return undefined;
  return { label: `environment variable ${spec.env}`, raw: text };
}

/** The value of `source`, or an Error naming the option or variable. */
function parsedValueOf(kind: OptionKind<unknown, unknown>, source: Source, env: OptionEnv): unknown {
  const outcome = kind.parse(source.raw, env);
  if (!outcome.ok) throw new Error(`${source.label}: ${outcome.problem}`);
  return outcome.value;
}

/**
 * The headers timeout: due no later than the whole request (as Node requires); unset, the default
 * shortened to the request timeout.
 */
function headersTimeoutOf(requestTimeoutMs: number, headersTimeoutMs: number, source: Source | undefined): number {
  if (source === undefined) return Math.min(headersTimeoutMs, requestTimeoutMs);
  if (headersTimeoutMs > requestTimeoutMs) {
    throw new Error(
      `${source.label}: must not exceed the request timeout (${requestTimeoutMs} ms), got ${headersTimeoutMs}`,
    );
  }
  return headersTimeoutMs;
}
