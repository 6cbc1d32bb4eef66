/**
 * The maximal head/tail cut of a text under a byte allowance, measured as the text costs inside a
 * JSON string literal (escapes included). The allowance is split equally; what one side cannot use
 * (a character that does not fit, or the other side reaching it) goes to the other, so that one more
 * character on either side would not fit. Characters are never split.
 */

import { ASCII_BYTES, quotedStringBytes } from "../json/measure.js";
import { utf8Length } from "../json/utf8.js";

/** A cut: `head` a prefix, `tail` a suffix, with their escaped cost and their raw UTF-8 bytes. */
export interface HeadTailCut {
  head: string;
  tail: string;
  /** Bytes the two cost inside JSON string literals (quotes not included). */
  escapedBytes: number;
  /** The part of `escapedBytes` the head costs (kept so growing never rescans the head). */
  headBytes: number;
  /** UTF-8 bytes of head and tail as raw text. */
  rawBytes: number;
}

/** Cuts `text` into the longest head and tail whose escaped cost fits `allowanceBytes`. */
export function cutHeadTail(text: string, allowanceBytes: number): HeadTailCut {
  const allowance = Math.max(0, allowanceBytes);
  const state: CutState = { text, headEnd: 0, tailStart: text.length, headBytes: 0, tailBytes: 0, rawBytes: 0 };
  // Head up to its half, tail up to the rest, then the head takes what the tail left.
  extendHead(state, Math.floor(allowance / 2));
  extendTail(state, allowance - state.headBytes);
  extendHead(state, allowance - state.tailBytes);
  return {
    head: text.slice(0, state.headEnd),
    tail: text.slice(state.tailStart),
    escapedBytes: state.headBytes + state.tailBytes,
    headBytes: state.headBytes,
    rawBytes: state.rawBytes,
  };
}

/**
 * Grows a cut of `text` by whole characters, the side with fewer escaped bytes first (the tail on a
 * tie), while `fits` accepts the grown cut's escaped and raw bytes. Used where the room depends on
 * the cut itself or was left over by other cuts; growing never gives back what the cut holds.
 */
export function growHeadTail(
  text: string,
  cut: HeadTailCut,
  fits: (escapedBytes: number, rawBytes: number) => boolean,
): HeadTailCut {
  let { head, tail, escapedBytes, headBytes, rawBytes } = cut;
  for (;;) {
    const headEnd = head.length;
    const tailStart = text.length - tail.length;
    if (headEnd >= tailStart) break;
    const next = String.fromCodePoint(text.codePointAt(headEnd) as number);
    const last = text.charCodeAt(tailStart - 1);
    const previous = text.slice(last >= 0xdc00 && last <= 0xdfff ? tailStart - 2 : tailStart - 1, tailStart);
    const nextBytes = quotedStringBytes(next) - 2;
    const previousBytes = quotedStringBytes(previous) - 2;
    const headFits = fits(escapedBytes + nextBytes, rawBytes + utf8Length(next));
    const tailFits = fits(escapedBytes + previousBytes, rawBytes + utf8Length(previous));
    const tailFirst = escapedBytes - headBytes <= headBytes;
    if (tailFits && (tailFirst || !headFits)) {
      tail = previous + tail;
      escapedBytes += previousBytes;
      rawBytes += utf8Length(previous);
    } else if (headFits) {
      head += next;
      headBytes += nextBytes;
      escapedBytes += nextBytes;
      rawBytes += utf8Length(next);
    } else {
      break;
    }
  }
  return { head, tail, escapedBytes, headBytes, rawBytes };
}

interface CutState {
  text: string;
  headEnd: number;
  tailStart: number;
  headBytes: number;
  tailBytes: number;
  rawBytes: number;
}

/** Grows the head while its escaped cost stays within `limit`. */
function extendHead(state: CutState, limit: number): void {
  const { text, tailStart } = state;
  let i = state.headEnd;
  let bytes = state.headBytes;
  let raw = state.rawBytes;
  while (i < tailStart) {
    const c = text.charCodeAt(i);
    const cost = UNIT_ESCAPED_BYTES[c] as number;
    if (bytes + cost > limit) break;
    bytes += cost;
    raw += UNIT_RAW_BYTES[c] as number;
    i += 1;
  }
  // A pair is taken whole or not at all: give back a high surrogate whose partner did not fit.
  if (i > state.headEnd && i < tailStart && isHighSurrogate(text.charCodeAt(i - 1))) {
    i -= 1;
    bytes -= 2;
    raw -= 2;
  }
  state.headEnd = i;
  state.headBytes = bytes;
  state.rawBytes = raw;
}

/** Grows the tail (backwards) while its escaped cost stays within `limit`. */
function extendTail(state: CutState, limit: number): void {
  const { text, headEnd } = state;
  let i = state.tailStart;
  let bytes = state.tailBytes;
  let raw = state.rawBytes;
  while (i > headEnd) {
    const c = text.charCodeAt(i - 1);
    const cost = UNIT_ESCAPED_BYTES[c] as number;
    if (bytes + cost > limit) break;
    bytes += cost;
    raw += UNIT_RAW_BYTES[c] as number;
    i -= 1;
  }
  // A pair is taken whole or not at all: give back a low surrogate whose partner did not fit.
  if (i < state.tailStart && i > headEnd && isLowSurrogate(text.charCodeAt(i))) {
    i += 1;
    bytes -= 2;
    raw -= 2;
  }
  state.tailStart = i;
  state.tailBytes = bytes;
  state.rawBytes = raw;
}

function isHighSurrogate(c: number): boolean {
  return c >= 0xd800 && c <= 0xdbff;
}

function isLowSurrogate(c: number): boolean {
  return c >= 0xdc00 && c <= 0xdfff;
}

// Per UTF-16 unit tables: one load per character instead of a chain of range tests, which is what
// a projection spends its time on. A surrogate counts 2 bytes, so a pair counts its 4.

/** Bytes a UTF-16 unit costs inside a JSON string literal (escapes included). */
const UNIT_ESCAPED_BYTES: Uint8Array = (() => {
  const table = new Uint8Array(0x10000).fill(3);
  table.set(ASCII_BYTES, 0);
  table.fill(2, 0x80, 0x800);
  table.fill(2, 0xd800, 0xe000);
  return table;
})();

/** UTF-8 bytes of a UTF-16 unit as raw text. */
const UNIT_RAW_BYTES: Uint8Array = (() => {
  const table = UNIT_ESCAPED_BYTES.slice();
  table.fill(1, 0, 0x80);
  return table;
})();
