/**
 * Number text exactly as Python's `json.dumps` writes it.
 *
 * Python writes a float with `float.__repr__`: the shortest digits that round-trip (the same digits
 * ECMAScript's Number-to-String picks), in fixed notation when the decimal exponent is from -4 to 15
 * and in scientific notation with a signed, at least two-digit exponent otherwise; a whole number in
 * fixed notation gets `.0`.
 */

/** Python's `repr(x)` of a finite double (`1e16` → `1e+16`, `1.5e-7` → `1.5e-07`, `-0` → `-0.0`). */
export function formatFloat(x: number): string {
  if (x === 0) return Object.is(x, -0) ? "-0.0" : "0.0";
  const scientific = x.toExponential(); // shortest round-trip digits, e.g. "1.5e-7"
  const e = scientific.indexOf("e");
  const exponent = Number(scientific.slice(e + 1));
  if (exponent < -4 || exponent >= 16) {
    const sign = exponent < 0 ? "-" : "+";
    const magnitude = Math.abs(exponent);
    return `${scientific.slice(0, e)}e${sign}${magnitude < 10 ? "0" : ""}${magnitude}`;
  }
  // From 1e-4 up to 1e16 ECMAScript's String() is already fixed notation with the same digits.
  const fixed = String(x);
  return fixed.indexOf(".") === -1 ? `${fixed}.0` : fixed;
}

/** Python's text for a plain JS number: safe integers as integers, everything else as a float. */
export function formatJsNumber(x: number): string | undefined {
  if (!Number.isFinite(x)) return undefined;
  if (Number.isSafeInteger(x) && !Object.is(x, -0)) return String(x);
  return formatFloat(x);
}
