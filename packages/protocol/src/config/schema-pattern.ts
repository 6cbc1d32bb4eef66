/**
 * Schema regular expressions (`pattern`, `patternProperties`) on a linear-time engine.
 *
 * JSON Schema patterns are ECMA-262 regular expressions, but a backtracking engine (V8's) takes
 * exponential time on patterns like `^(a+)+$`: one argument check could hold the event loop for
 * minutes. They run on RE2 (re2js, pure JavaScript) instead, whose matching time is linear in the
 * input. A pattern must first be a valid ECMAScript pattern with the `u` flag (as Ajv compiles it);
 * it is then translated token by token into RE2 syntax of the same meaning, so that the ECMAScript
 * constructs whose RE2 spelling matches something else (`\s`, `.`, `\uXXXX`, `[[:alpha:]]`) keep
 * their ECMAScript meaning (`pattern-translator.ts`). What RE2 cannot run (lookaround,
 * backreferences) or would cost too much to compile is refused with the reason when the tool is
 * configured.
 */

import { RE2JS } from "re2js";
import { InstructionLimitExceeded, Translator, Untranslatable } from "./pattern-translator.js";

/**
 * A pattern translated to RE2 syntax, with an upper estimate of its RE2 program's size and its count
 * of Unicode property escapes; or the reason it cannot run on a linear-time engine.
 */
export type PatternTranslation =
  | { ok: true; re2: string; estimatedSize: number; propertyEscapes: number }
  | { ok: false; reason: string };

/**
 * What patterns may cost to compile. RE2 compiles a few microseconds per instruction and V8 and
 * RE2 each spend a fraction of a millisecond per Unicode property escape (`\p{L}`), so both are
 * bounded, per pattern and over all the patterns of one schema, before anything is compiled.
 */
export const PATTERN_LIMITS = {
  /** RE2 instructions one pattern may compile to (matching cost per character grows with it too). */
  instructions: 1_000,
  /** RE2 instructions all the patterns of one schema may compile to together. */
  instructionsInAll: 5_000,
  /** `\p{…}` and `\P{…}` escapes in all the patterns of one schema. */
  propertyEscapesInAll: 32,
} as const;

/**
 * Translates an ECMAScript pattern (`u` flag) into RE2 syntax of the same meaning, or says why it
 * cannot run on RE2. Does not compile the result: `compileLinearPattern` does both.
 */
export function translatePattern(pattern: string): PatternTranslation {
  // Counted before any parse: V8 and RE2 both parse property escapes slowly (an escaped `\\p{`
  // counts too, which only errs on the safe side).
  const propertyEscapes = pattern.match(/\\[pP]\{/g)?.length ?? 0;
  if (propertyEscapes > PATTERN_LIMITS.propertyEscapesInAll) {
    return {
      ok: false,
      reason: `it holds ${propertyEscapes} Unicode property escapes; a schema's patterns may hold ${PATTERN_LIMITS.propertyEscapesInAll} in all`,
    };
  }
  try {
    new RegExp(pattern, "u");
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    return { ok: false, reason: `not a valid ECMAScript regular expression with the u flag (${reason})` };
  }
  try {
    const translator = new Translator(pattern, PATTERN_LIMITS.instructions);
    const re2 = translator.translate();
    return { ok: true, re2, estimatedSize: translator.estimatedSize(), propertyEscapes };
  } catch (error) {
    if (error instanceof InstructionLimitExceeded) return { ok: false, reason: tooManyInstructions() };
    if (error instanceof Untranslatable) return { ok: false, reason: error.message };
    throw error;
  }
}

/** A compiled linear-time pattern: `test` searches anywhere in the input, as RegExp's `test` does. */
export interface LinearPattern {
  readonly source: string;
  /** The size of the compiled RE2 program: the matching cost per input character grows with it. */
  readonly programSize: number;
  test(input: string): boolean;
}

/** Compiles an ECMAScript pattern to RE2, or returns why it cannot (for an `invalid_schema` message). */
export function compileLinearPattern(pattern: string): LinearPattern | { reason: string } {
  const translation = translatePattern(pattern);
  if (!translation.ok) return { reason: translation.reason };
  return compileTranslation(pattern, translation.re2);
}

/** Compiles a translated pattern (`translatePattern(pattern).re2`) on RE2. */
export function compileTranslation(pattern: string, re2: string): LinearPattern | { reason: string } {
  let compiled: RE2JS;
  try {
    compiled = RE2JS.compile(re2);
  } catch (error) {
    const detail = error instanceof Error ? error.message.replace(/^error parsing regexp: /, "") : String(error);
    return { reason: `RE2, the linear-time engine patterns run on, cannot compile it: ${detail}` };
  }
  const programSize = compiled.programSize();
  if (programSize > PATTERN_LIMITS.instructions) return { reason: tooManyInstructions(programSize) };
  return { source: pattern, programSize, test: (input) => compiled.test(input) };
}

/** Why a pattern is refused for its size; `size` when RE2 compiled it, undefined when estimated first. */
function tooManyInstructions(size?: number): string {
  const compiles = size === undefined ? "would compile to" : `compiles to ${size}`;
  return `it ${compiles} more RE2 instructions than the limit of ${PATTERN_LIMITS.instructions} per pattern (counted repetitions such as {1,500} multiply a pattern's size)`;
}
