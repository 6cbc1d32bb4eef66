/**
 * Orders two strings by Unicode code point, as Python sorts `str` keys.
 *
 * JavaScript's default comparison is by UTF-16 code unit, which puts an astral character (a
 * surrogate pair, 0xD800–0xDFFF) before U+E000–U+FFFF; Python puts it after. At the first differing
 * unit, lifting surrogates above 0xFFFF restores code-point order.
 */
export function compareCodePoints(a: string, b: string): number {
  if (a === b) return 0;
  const length = Math.min(a.length, b.length);
  for (let i = 0; i < length; i++) {
    let x = a.charCodeAt(i);
    let y = b.charCodeAt(i);
    if (x === y) continue;
    if (x >= 0xd800 && y >= 0xd800) {
      x = x <= 0xdfff ? x + 0x2000 : x - 0x800;
      y = y <= 0xdfff ? y + 0x2000 : y - 0x800;
    }
    return x - y;
  }
  return a.length - b.length;
}
