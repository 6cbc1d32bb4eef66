/**
 * Where UTF-8 goes wrong. TextDecoder only says *that* bytes are not UTF-8; a refusal is more useful
 * when it names the byte offset, so this scan runs once a strict decode has already failed.
 */

/**
 * The byte offset where the first ill-formed UTF-8 sequence starts, or -1 when all of `bytes` is
 * well-formed. Follows the WHATWG/Unicode rules a fatal TextDecoder (and Python's strict codec) apply:
 * no overlong forms, no encoded surrogates, nothing above U+10FFFF, no sequence cut short.
 */
export function firstInvalidUtf8Offset(bytes: Uint8Array): number {
  const length = bytes.length;
  let i = 0;
  while (i < length) {
    const lead = bytes[i] as number;
    if (lead < 0x80) {
      i++;
      continue;
    }
    let needed: number;
    // The allowed range of the first continuation byte narrows for some leads (overlongs, surrogates, > U+10FFFF).
    let low = 0x80;
    let high = 0xbf;
    if (lead >= 0xc2 && lead <= 0xdf) needed = 1;
    else if (lead >= 0xe0 && lead <= 0xef) {
      needed = 2;
      if (lead === 0xe0) low = 0xa0;
      else if (lead === 0xed) high = 0x9f;
    } else if (lead >= 0xf0 && lead <= 0xf4) {
      needed = 3;
      if (lead === 0xf0) low = 0x90;
      else if (lead === 0xf4) high = 0x8f;
    } else return i;
    if (i + needed >= length) return i; // cut short by the end of the input
    const first = bytes[i + 1] as number;
    if (first < low || first > high) return i;
    for (let k = 2; k <= needed; k++) {
      const next = bytes[i + k] as number;
      if (next < 0x80 || next > 0xbf) return i;
    }
    i += needed + 1;
  }
  return -1;
}
