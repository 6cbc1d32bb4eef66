/**
 * Server-made IDs: `<prefix>_` + 10 characters of creation time + 16 random characters, in lowercase
 * Crockford base32 (26 characters, like a ULID). Within one process IDs only grow (a second ID in
 * the same millisecond increments the random part), so lists ordered by (time, ID) keep creation
 * order; the 80 random bits make IDs unguessable and collision-free across processes.
 */

import { randomBytes } from "node:crypto";

const ALPHABET = "0123456789abcdefghjkmnpqrstvwxyz";
const RANDOM_BITS = 80n;
const RANDOM_LIMIT = 1n << RANDOM_BITS;

let lastTime = -1;
let lastRandom = 0n;

function base32(value: bigint, length: number): string {
  let text = "";
  let rest = value;
  for (let i = 0; i < length; i++) {
    text = ALPHABET.charAt(Number(rest & 31n)) + text;
    rest >>= 5n;
  }
  return text;
}

/** A new ID such as `key_01j9z3k5q8w2x7v4b6n0m1c3d5` (prefix, underscore, 26 characters). */
export function newId(prefix: string, atMs: number): string {
  let time = Math.max(0, Math.floor(atMs));
  let random: bigint;
  if (time <= lastTime) {
    // Same (or an earlier) millisecond: stay after the previous ID.
    time = lastTime;
    random = lastRandom + 1n;
    if (random >= RANDOM_LIMIT) {
      time += 1;
      random = 0n;
    }
  } else {
    random = BigInt(`0x${randomBytes(10).toString("hex")}`);
  }
  lastTime = time;
  lastRandom = random;
  return `${prefix}_${base32(BigInt(time), 10)}${base32(random, 16)}`;
}
