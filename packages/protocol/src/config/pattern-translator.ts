/**
 * The translation of an ECMAScript pattern (valid with the `u` flag) into RE2 syntax of the same
 * meaning, token by token, with an upper estimate of the RE2 program's size made on the way (see
 * `schema-pattern.ts`, which runs it).
 */

import { GENERAL_CATEGORY_ALIASES } from "./unicode-categories.js";

/** The highest Unicode code point. */
const MAX_CODE_POINT = 0x10ffff;

/** ECMAScript `\s`: WhiteSpace and LineTerminator (ECMA-262 §22.2.2.9), as code-point ranges. */
const ECMASCRIPT_SPACE: readonly (readonly [number, number])[] = [
  [0x09, 0x0d],
  [0x20, 0x20],
  [0xa0, 0xa0],
  [0x1680, 0x1680],
  [0x2000, 0x200a],
  [0x2028, 0x2029],
  [0x202f, 0x202f],
  [0x205f, 0x205f],
  [0x3000, 0x3000],
  [0xfeff, 0xfeff],
];

/** ECMAScript line terminators: what `.` does not match without the `s` flag. */
const LINE_TERMINATORS: readonly (readonly [number, number])[] = [
  [0x0a, 0x0a],
  [0x0d, 0x0d],
  [0x2028, 0x2029],
];

/** Thrown inside the translator for a pattern RE2 cannot run, with the reason; caught at its boundary. */
export class Untranslatable extends Error {}

/** Thrown when the size estimate passes the translator's instruction limit. */
export class InstructionLimitExceeded extends Untranslatable {}

/** A recursive-descent pass over a valid ECMAScript pattern, emitting RE2 syntax as it goes. */
export class Translator {
  private index = 0;
  private readonly out: string[] = [];
  /** Per open group: instructions of finished alternatives, of the current one, and of its last atom. */
  private readonly sizes: { alternatives: number; current: number; last: number }[] = [
    { alternatives: 0, current: 0, last: 0 },
  ];

  constructor(
    private readonly pattern: string,
    private readonly maxInstructions: number,
  ) {}

  translate(): string {
    while (this.index < this.pattern.length) {
      const before = this.out.length;
      this.atom();
      this.account(this.out.slice(before).join(""));
    }
    return this.out.join("");
  }

  /** An upper estimate of the RE2 program's size, known before RE2 compiles anything. */
  estimatedSize(): number {
    const top = this.sizes[0] as { alternatives: number; current: number };
    return top.alternatives + top.current + 2;
  }

  /** Adds what one emitted token costs; refuses as soon as the estimate passes the per-pattern limit. */
  private account(token: string): void {
    const level = this.sizes[this.sizes.length - 1] as { alternatives: number; current: number; last: number };
    if (token === "(?:") {
      this.sizes.push({ alternatives: 0, current: 0, last: 0 });
      return;
    }
    if (token === ")") {
      this.sizes.pop();
      const parent = this.sizes[this.sizes.length - 1] as typeof level;
      parent.last = level.alternatives + level.current;
      parent.current += parent.last;
    } else if (token === "|") {
      level.alternatives += level.current + 1;
      level.current = 0;
    } else if (token === "*" || token === "+" || token === "?") {
      level.current += 1;
    } else if (token.startsWith("{")) {
      const [least = 0, most] = token
        .slice(1, -1)
        .split(",")
        .map((bound) => (bound === "" ? undefined : Number(bound)));
      const copies = Math.max(least ?? 0, most ?? 0, 1);
      level.current += level.last * (copies - 1) + 1;
      level.last *= copies;
    } else {
      level.last = 1;
      level.current += 1;
    }
    const total = this.sizes.reduce((sum, open) => sum + open.alternatives + open.current, 0);
    if (total > this.maxInstructions) throw new InstructionLimitExceeded();
  }

  private peek(offset = 0): string {
    return this.pattern[this.index + offset] ?? "";
  }

  private atom(): void {
    const char = this.peek();
    switch (char) {
      case "\\":
        this.escapeOutsideClass();
        return;
      case "[":
        this.characterClass();
        return;
      case ".":
        this.index += 1;
        this.out.push(classText(complement(LINE_TERMINATORS)));
        return;
      case "(":
        this.groupOpening();
        return;
      case "{": {
        // A quantifier: valid with the u flag only as {n}, {n,} or {n,m}; RE2 spells it the same.
        const end = this.pattern.indexOf("}", this.index);
        this.out.push(this.pattern.slice(this.index, end + 1));
        this.index = end + 1;
        return;
      }
      case "^":
      case "$":
      case "|":
      case ")":
      case "*":
      case "+":
      case "?":
        this.index += 1;
        this.out.push(char);
        return;
      default: {
        const codePoint = this.pattern.codePointAt(this.index) as number;
        this.index += codePoint > 0xffff ? 2 : 1;
        this.out.push(literal(codePoint));
      }
    }
  }

  private groupOpening(): void {
    const rest = this.pattern.slice(this.index, this.index + 4);
    if (rest.startsWith("(?=") || rest.startsWith("(?!") || rest.startsWith("(?<=") || rest.startsWith("(?<!")) {
      throw new Untranslatable("lookahead and lookbehind assertions cannot run in linear time (RE2 has none)");
    }
    if (rest.startsWith("(?:")) {
      this.index += 3;
    } else if (rest.startsWith("(?<")) {
      // A named group: the name only matters to backreferences, which are refused.
      this.index = this.pattern.indexOf(">", this.index) + 1;
    } else {
      this.index += 1;
    }
    // Captures do not matter to `test`; non-capturing groups keep the RE2 program smaller.
    this.out.push("(?:");
  }

  private escapeOutsideClass(): void {
    const letter = this.peek(1);
    switch (letter) {
      case "d":
      case "D":
      case "w":
      case "W":
      case "b":
      case "B":
        // ASCII in both dialects (ECMAScript without the i flag).
        this.index += 2;
        this.out.push(`\\${letter}`);
        return;
      case "s":
        this.index += 2;
        this.out.push(classText(ECMASCRIPT_SPACE));
        return;
      case "S":
        this.index += 2;
        this.out.push(classText(complement(ECMASCRIPT_SPACE)));
        return;
      case "k":
        throw new Untranslatable("backreferences cannot run in linear time (RE2 has none)");
      case "p":
      case "P":
        this.out.push(this.propertyEscape());
        return;
      default:
        if (letter >= "1" && letter <= "9") {
          throw new Untranslatable("backreferences cannot run in linear time (RE2 has none)");
        }
        this.out.push(literal(this.characterEscape()));
    }
  }

  /** `\p{…}` / `\P{…}`: General_Category and Script values, spelled as RE2 knows them. */
  private propertyEscape(): string {
    const negated = this.peek(1) === "P";
    const end = this.pattern.indexOf("}", this.index);
    const body = this.pattern.slice(this.index + 3, end);
    this.index = end + 1;
    const equals = body.indexOf("=");
    let name = body;
    if (equals !== -1) {
      const property = body.slice(0, equals);
      name = body.slice(equals + 1);
      if (property !== "General_Category" && property !== "gc" && property !== "Script" && property !== "sc") {
        throw new Untranslatable(`the Unicode property ${property} is not supported by RE2`);
      }
    }
    name = GENERAL_CATEGORY_ALIASES[name] ?? name;
    return `\\${negated ? "P" : "p"}{${name}}`;
  }

  /** One escape that stands for a single code point (`\n`, `\x41`, `\u{1F600}`, `\/`, …); consumes it. */
  private characterEscape(): number {
    const letter = this.peek(1);
    this.index += 2;
    switch (letter) {
      case "t":
        return 0x09;
      case "n":
        return 0x0a;
      case "v":
        return 0x0b;
      case "f":
        return 0x0c;
      case "r":
        return 0x0d;
      case "0":
        return 0x00;
      case "b":
        return 0x08; // only reached inside a class, where \b is backspace
      case "c": {
        const control = (this.pattern.codePointAt(this.index) as number) % 32;
        this.index += 1;
        return control;
      }
      case "x": {
        const value = Number.parseInt(this.pattern.slice(this.index, this.index + 2), 16);
        this.index += 2;
        return value;
      }
      case "u":
        return this.unicodeEscape();
      default:
        // An identity escape of a syntax character (`\.`, `\/`, `\-`, …): the character itself.
        this.index -= 1;
        return this.codePointHere();
    }
  }

  /** After `\u`: `{hex}` or four hex digits, a surrogate pair of two `\u` escapes read as one code point. */
  private unicodeEscape(): number {
    if (this.peek() === "{") {
      const end = this.pattern.indexOf("}", this.index);
      const value = Number.parseInt(this.pattern.slice(this.index + 1, end), 16);
      this.index = end + 1;
      return value;
    }
    const high = Number.parseInt(this.pattern.slice(this.index, this.index + 4), 16);
    this.index += 4;
    if (high >= 0xd800 && high <= 0xdbff && this.peek() === "\\" && this.peek(1) === "u") {
      const low = Number.parseInt(this.pattern.slice(this.index + 2, this.index + 6), 16);
      if (
        low >= 0xdc00 &&
        low <= 0xdfff &&
        /^[0-9A-Fa-f]{4}$/.test(this.pattern.slice(this.index + 2, this.index + 6))
      ) {
        this.index += 6;
        return 0x10000 + ((high - 0xd800) << 10) + (low - 0xdc00);
      }
    }
    return high;
  }

  private codePointHere(): number {
    const codePoint = this.pattern.codePointAt(this.index) as number;
    this.index += codePoint > 0xffff ? 2 : 1;
    return codePoint;
  }

  /** `[…]`: every member re-emitted explicitly, so no RE2-only class syntax (`[:alpha:]`) can appear. */
  private characterClass(): void {
    this.index += 1;
    const negated = this.peek() === "^";
    if (negated) this.index += 1;
    const items: string[] = [];
    while (this.peek() !== "]") {
      const start = this.classAtom();
      if (this.peek() === "-" && this.peek(1) !== "]" && typeof start === "number") {
        this.index += 1;
        const end = this.classAtom();
        // With the u flag a range's ends are single characters (a class escape there is a syntax error).
        items.push(`${hex(start)}-${hex(end as number)}`);
      } else {
        items.push(typeof start === "number" ? hex(start) : start);
      }
    }
    this.index += 1;
    if (items.length === 0) {
      // `[]` matches nothing and `[^]` anything; RE2 has no empty class.
      this.out.push(negated ? `[${hex(0)}-${hex(MAX_CODE_POINT)}]` : `[^${hex(0)}-${hex(MAX_CODE_POINT)}]`);
      return;
    }
    this.out.push(`[${negated ? "^" : ""}${items.join("")}]`);
  }

  /** One member of a class: a code point, or the RE2 text of a set (`\d`, ECMAScript's `\s` spelled out, `\p{…}`). */
  private classAtom(): number | string {
    if (this.peek() !== "\\") return this.codePointHere();
    const letter = this.peek(1);
    switch (letter) {
      case "d":
      case "D":
      case "w":
      case "W":
        this.index += 2;
        return `\\${letter}`;
      case "s":
        this.index += 2;
        return rangesText(ECMASCRIPT_SPACE);
      case "S":
        this.index += 2;
        return rangesText(complement(ECMASCRIPT_SPACE));
      case "p":
      case "P":
        return this.propertyEscape();
      default:
        return this.characterEscape();
    }
  }
}

/** A code point as an RE2 escape, valid inside and outside classes. */
function hex(codePoint: number): string {
  return `\\x{${codePoint.toString(16)}}`;
}

/** A literal code point: ASCII letters, digits and a few safe characters as themselves, the rest escaped. */
function literal(codePoint: number): string {
  const char = String.fromCodePoint(codePoint);
  return /^[A-Za-z0-9 _,:;@#%&'"=<>~`!-]$/.test(char) ? char : hex(codePoint);
}

function rangesText(ranges: readonly (readonly [number, number])[]): string {
  return ranges.map(([from, to]) => (from === to ? hex(from) : `${hex(from)}-${hex(to)}`)).join("");
}

function classText(ranges: readonly (readonly [number, number])[]): string {
  return `[${rangesText(ranges)}]`;
}

/** The code points outside `ranges` (sorted, disjoint), as ranges. */
function complement(ranges: readonly (readonly [number, number])[]): [number, number][] {
  const result: [number, number][] = [];
  let next = 0;
  for (const [from, to] of ranges) {
    if (from > next) result.push([next, from - 1]);
    next = to + 1;
  }
  if (next <= MAX_CODE_POINT) result.push([next, MAX_CODE_POINT]);
  return result;
}
