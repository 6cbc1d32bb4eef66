/**
 * The kinds of server option: how a raw value (an explicit option, or the text of its environment
 * variable) becomes the compiled value, and how the kind reads in the docs' options table. A parse
 * answers a value or the problem with it; the caller names the option or variable in front.
 */

/** The environment an option is read from. */
export type OptionEnv = Readonly<Record<string, string | undefined>>;

/** A parsed value, or what is wrong with the raw one ("must be …", without the option's name). */
export type OptionParse<Value> =
  | { readonly ok: true; readonly value: Value }
  | { readonly ok: false; readonly problem: string };

/** The unit of an integer option: shown in larger units in the docs; `number` is shown as is (a port). */
export type IntegerUnit = "ms" | "bytes" | "count" | "number";

/** One kind of option; `Input` is what a caller may pass explicitly, `Value` what compiling yields. */
export interface OptionKind<Input, Value> {
  /** Type only, never set: carries `Input` to the derived `ServerOptions`. */
  readonly input?: Input;
  /** Checks a raw value: an explicit option (any type at run time) or an environment variable's text. */
  readonly parse: (raw: unknown, env: OptionEnv) => OptionParse<Value>;
  /** What the kind accepts, for the docs (markdown). */
  readonly accepts: string;
  /** A value as the docs show it (markdown). */
  readonly show: (value: Value) => string;
}

/** An integer kind, for the docs and for cross-field checks that need its bounds. */
export interface IntegerKind extends OptionKind<number, number> {
  readonly min: number;
  readonly max: number;
  readonly unit: IntegerUnit;
}

/** A parsed value. */
export function parsed<Value>(value: Value): OptionParse<Value> {
  return { ok: true, value };
}

/** A refused value. */
export function refused(problem: string): OptionParse<never> {
  return { ok: false, problem };
}

/** An integer from `min` to `max`; a variable's text is plain decimal digits. */
export function integer(bounds: {
  readonly min: number;
  readonly max: number;
  readonly unit: IntegerUnit;
}): IntegerKind {
  const { min, max, unit } = bounds;
  return {
    min,
    max,
    unit,
    parse: (raw) => {
      const value = typeof raw === "string" && /^[0-9]+$/.test(raw.trim()) ? Number(raw.trim()) : raw;
      if (typeof value !== "number" || !Number.isSafeInteger(value) || value < min || value > max) {
        return refused(`must be an integer from ${min} to ${max}, got ${JSON.stringify(String(raw))}`);
      }
      return parsed(value);
    },
    accepts: `${showInteger(min, unit)} to ${showInteger(max, unit)}`,
    show: (value) => showInteger(value, unit),
  };
}

/** `true` or `false` (the variable's text exactly that). */
export function boolean(): OptionKind<boolean, boolean> {
  return {
    parse: (raw) => {
      if (raw === true || raw === "true") return parsed(true);
      if (raw === false || raw === "false") return parsed(false);
      return refused("must be true or false");
    },
    accepts: "`true` or `false`",
    show: (value) => `\`${value}\``,
  };
}

/** One of a fixed list of words. */
export function oneOf<const Word extends string>(words: readonly Word[]): OptionKind<Word, Word> {
  return {
    parse: (raw) => {
      const word = words.find((candidate) => candidate === raw);
      return word === undefined ? refused(`must be one of ${words.join(", ")}`) : parsed(word);
    },
    accepts: words.map((word) => `\`${word}\``).join(", "),
    show: (value) => `\`${value}\``,
  };
}

/** A kind with its own parse, named in the docs by `accepts`. */
export function custom<Input, Value>(kind: {
  readonly parse: (raw: unknown, env: OptionEnv) => OptionParse<Value>;
  readonly accepts: string;
  readonly show?: (value: Value) => string;
}): OptionKind<Input, Value> {
  return { show: (value) => `\`${String(value)}\``, ...kind };
}

const DURATION_UNITS: ReadonlyArray<readonly [number, string, string]> = [
  [86_400_000, "day", "days"],
  [3_600_000, "h", "h"],
  [60_000, "min", "min"],
  [1_000, "s", "s"],
];

const SIZE_UNITS: ReadonlyArray<readonly [number, string]> = [
  [1024 * 1024 * 1024, "GiB"],
  [1024 * 1024, "MiB"],
  [1024, "KiB"],
];

/** An integer in the largest unit that divides it exactly: `30 s`, `8 MiB`, `100,000`. */
export function showInteger(value: number, unit: IntegerUnit): string {
  if (unit === "number") return String(value);
  if (unit === "count") return grouped(value);
  if (value === 0) return unit === "ms" ? "0 ms" : "0 bytes";
  if (unit === "ms") {
    for (const [size, one, many] of DURATION_UNITS) {
      if (value % size === 0) return `${grouped(value / size)} ${value === size ? one : many}`;
    }
    return `${grouped(value)} ms`;
  }
  for (const [size, name] of SIZE_UNITS) {
    if (value % size === 0) return `${grouped(value / size)} ${name}`;
  }
  return value === 1 ? "1 byte" : `${grouped(value)} bytes`;
}

/** Digits in groups of three with commas (`100,000`), the same on every ICU build. */
function grouped(value: number): string {
  return String(value).replace(/\B(?=(\d{3})+(?!\d))/g, ",");
}
