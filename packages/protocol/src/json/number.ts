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

/** Beyond this decimal exponent the fast length rule is not used (subnormals, overflow). */
const FAST_EXPONENT_LIMIT = 300;

/** Decimals of at most this many significant digits round-trip through a double (DBL_DIG). */
const EXACT_DIGITS = 15;

/**
 * Length of Python's `repr` of the JSON number lexeme `text[start, end)` (a fraction or exponent
 * present), or -1 when it is outside the double range.
 *
 * Fast path: a decimal of at most 15 significant digits is the unique shortest round-trip form of
 * its double, so `repr` writes exactly those digits and the length follows from the digit count
 * and the decimal exponent, without converting. Anything else is converted and formatted.
 */
export function floatTextLength(text: string, start: number, end: number): number {
  let pos = start;
  const negative = text.charCodeAt(pos) === 0x2d ? 1 : 0;
  pos += negative;
  let integerDigits = 0;
  let firstSignificant = -1; // index into the digit sequence (integer then fraction digits)
  let lastSignificant = -1;
  let index = 0;
  for (; pos < end; pos++) {
    const c = text.charCodeAt(pos);
    if (c === 0x2e) continue;
    if (c < 0x30 || c > 0x39) break;
    if (c !== 0x30) {
      if (firstSignificant < 0) firstSignificant = index;
      lastSignificant = index;
    }
    index++;
    if (pos < end && text.charCodeAt(pos + 1) === 0x2e) integerDigits = index;
  }
  if (integerDigits === 0) integerDigits = countIntegerDigits(text, start + negative, end);
  let exponent = 0;
  if (pos < end) {
    // An exponent: e/E, an optional sign, digits.
    pos++;
    const sign = text.charCodeAt(pos);
    const exponentNegative = sign === 0x2d;
    if (sign === 0x2b || sign === 0x2d) pos++;
    if (end - pos > 6) return slowFloatTextLength(text, start, end);
    for (; pos < end; pos++) exponent = exponent * 10 + (text.charCodeAt(pos) - 0x30);
    if (exponentNegative) exponent = -exponent;
  }
  if (firstSignificant < 0) return 3 + negative; // zero: "0.0" or "-0.0"
  const digits = lastSignificant - firstSignificant + 1;
  const e = integerDigits - 1 - firstSignificant + exponent;
  if (digits > EXACT_DIGITS || e > FAST_EXPONENT_LIMIT || e < -FAST_EXPONENT_LIMIT) {
    return slowFloatTextLength(text, start, end);
  }
  if (e < -4 || e >= 16) {
    const magnitude = e < 0 ? -e : e;
    return negative + (digits === 1 ? 1 : digits + 1) + 2 + (magnitude < 10 ? 2 : magnitude < 100 ? 2 : 3);
  }
  if (e >= 0) return negative + e + 1 + 1 + Math.max(1, digits - (e + 1));
  return negative + 2 + (-e - 1) + digits;
}

/** Digits before the decimal point of a lexeme (from just after its sign). */
function countIntegerDigits(text: string, from: number, end: number): number {
  let pos = from;
  while (pos < end && text.charCodeAt(pos) >= 0x30 && text.charCodeAt(pos) <= 0x39) pos++;
  return pos - from;
}

function slowFloatTextLength(text: string, start: number, end: number): number {
  const x = Number(text.slice(start, end));
  return Number.isFinite(x) ? formatFloat(x).length : -1;
}
