/**
 * Server-made IDs: `<prefix>_` + 10 characters of creation time + 16 random characters, in lowercase
 * Crockford base32 (26 characters, like a ULID). Within one process IDs only grow (a second ID in
 * the same millisecond increments the random part), so lists ordered by (time, ID) keep creation
 * order; the 80 random bits make IDs unguessable and collision-free across processes.
 */

import { randomFillSync } from "node:crypto";

const ALPHABET = "0123456789abcdefghjkmnpqrstvwxyz";
/** Characters of the random part: 16 base32 digits, 80 bits. */
const RANDOM_DIGITS = 16;

/**
 * Random bytes drawn 4 KiB at a time (one fill per 256 IDs instead of one per ID); each digit takes
 * the low 5 bits of one byte, uniform since 256 is a multiple of 32.
 */
const pool = Buffer.alloc(4096);
let poolAt = pool.length;

let lastTime = -1;
/** The previous ID's random part, one base32 digit (0–31) per character. */
const lastRandom = new Uint8Array(RANDOM_DIGITS);

function drawRandom(into: Uint8Array): void {
  if (poolAt + RANDOM_DIGITS > pool.length) {
    randomFillSync(pool);
    poolAt = 0;
  }
  for (let i = 0; i < RANDOM_DIGITS; i++) into[i] = (pool[poolAt + i] as number) & 31;
  poolAt += RANDOM_DIGITS;
}

/** Adds one to the random part; false when it was all ones (it is then all zeros). */
function increment(digits: Uint8Array): boolean {
  for (let i = digits.length - 1; i >= 0; i--) {
    if ((digits[i] as number) < 31) {
      digits[i] = (digits[i] as number) + 1;
      return true;
    }
    digits[i] = 0;
  }
  return false;
}

/** The first 10 characters: the time, most significant digit first (48 bits fit a double exactly). */
function timeDigits(time: number): string {
  let text = "";
  let rest = time;
  for (let i = 0; i < 10; i++) {
    text = ALPHABET.charAt(rest % 32) + text;
    rest = Math.floor(rest / 32);
  }
  return text;
}

/** A new ID such as `key_01j9z3k5q8w2x7v4b6n0m1c3d5` (prefix, underscore, 26 characters). */
export function newId(prefix: string, atMs: number): string {
  let time = Math.max(0, Math.floor(atMs));
  if (time <= lastTime) {
    // Same (or an earlier) millisecond: stay after the previous ID.
    time = lastTime;
    if (!increment(lastRandom)) time += 1;
  } else {
    drawRandom(lastRandom);
  }
  lastTime = time;
  let random = "";
  for (let i = 0; i < RANDOM_DIGITS; i++) random += ALPHABET.charAt(lastRandom[i] as number);
  return `${prefix}_${timeDigits(time)}${random}`;
}
