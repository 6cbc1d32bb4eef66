/** UTF-8 bytes of a well-formed string (a surrogate pair counts 4, any other unit by its range). */
export function utf8Length(s: string): number {
  let bytes = s.length;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c < 0x80) continue;
    if (c < 0x800) bytes += 1;
    else if (c >= 0xd800 && c <= 0xdbff) {
      bytes += 2; // the pair: 2 units, 4 bytes
      i++;
    } else bytes += 2;
  }
  return bytes;
}
