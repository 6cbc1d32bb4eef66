/**
 * UTF-8 length of a string, as `TextEncoder` would encode it: a surrogate pair counts 4 bytes, a lone
 * surrogate 3 (the replacement character the encoder writes; the protocol's own texts never hold one).
 *
 * Long strings — the compact text of every stored result — are counted by the platform's encoder in
 * chunks, several times faster than a loop in JavaScript; short ones by the loop, which costs less
 * than a call into the encoder.
 */

/** Strings shorter than this are counted by the loop. */
const NATIVE_FROM_UNITS = 256;
/** UTF-16 units per encoder call (its scratch space holds 3 bytes per unit, the most one can take). */
const CHUNK_UNITS = 16_384;

const encoder = new TextEncoder();
/** Scratch space for the encoder; only the counts it returns are used, never the bytes. */
const scratch = new Uint8Array(3 * CHUNK_UNITS);

/** UTF-8 bytes of `s`. */
export function utf8Length(s: string): number {
  if (s.length < NATIVE_FROM_UNITS) return loopLength(s, 0, s.length);
  let bytes = 0;
  for (let start = 0; start < s.length; ) {
    let end = Math.min(s.length, start + CHUNK_UNITS);
    // Never cut a pair in two: both halves would count as lone surrogates.
    const last = s.charCodeAt(end - 1);
    if (end < s.length && last >= 0xd800 && last <= 0xdbff) end--;
    bytes += encoder.encodeInto(s.slice(start, end), scratch).written ?? loopLength(s, start, end);
    start = end;
  }
  return bytes;
}

function loopLength(s: string, from: number, to: number): number {
  let bytes = to - from;
  for (let i = from; i < to; i++) {
    const c = s.charCodeAt(i);
    if (c < 0x80) continue;
    if (c < 0x800) bytes += 1;
    else if (c >= 0xd800 && c <= 0xdbff && i + 1 < to) {
      const next = s.charCodeAt(i + 1);
      if (next >= 0xdc00 && next <= 0xdfff) {
        bytes += 2; // the pair: 2 units, 4 bytes
        i++;
      } else bytes += 2;
    } else bytes += 2;
  }
  return bytes;
}
