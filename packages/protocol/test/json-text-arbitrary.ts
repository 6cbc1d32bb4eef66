// A fast-check generator of JSON *text*, for the measure properties: random whitespace, every escape
// form, surrogate pairs written raw and escaped, exponents, big integers, and objects whose keys
// repeat (also spelled two ways), so duplicates are common.
import fc from "fast-check";

/** Four hex digits of a UTF-16 unit, in either case. */
function hex4(unit: number, upper: boolean): string {
  const hex = unit.toString(16).padStart(4, "0");
  return upper ? hex.toUpperCase() : hex;
}

const whitespace = fc.string({ unit: fc.constantFrom(" ", "\t", "\n", "\r"), maxLength: 3 });

const stringPiece: fc.Arbitrary<string> = fc.oneof(
  fc.constantFrom("a", "Z", " ", "/", "'", "~", "é", "中", "😀", "𝄞", "\u007f", "\u2028", "\u2029", "\ufeff", "\ue000"),
  // Any code point written raw, except what must be escaped.
  fc
    .string({ unit: "binary", maxLength: 3 })
    // biome-ignore lint/suspicious/noControlCharactersInRegex: removing what JSON forbids raw.
    .map((s) => s.replace(/["\\\u0000-\u001f]/g, "")),
  fc.constantFrom('\\"', "\\\\", "\\/", "\\b", "\\f", "\\n", "\\r", "\\t"),
  // \uXXXX of a BMP character (not a surrogate), either hex case.
  fc
    .tuple(fc.integer({ min: 0, max: 0xffff }), fc.boolean())
    .filter(([unit]) => unit < 0xd800 || unit > 0xdfff)
    .map(([unit, upper]) => `\\u${hex4(unit, upper)}`),
  // An astral character as an escaped surrogate pair.
  fc.tuple(fc.integer({ min: 0x10000, max: 0x10ffff }), fc.boolean()).map(([cp, upper]) => {
    const s = String.fromCodePoint(cp);
    return `\\u${hex4(s.charCodeAt(0), upper)}\\u${hex4(s.charCodeAt(1), upper)}`;
  }),
  // A control character escaped as \u00XX.
  fc.tuple(fc.integer({ min: 0, max: 0x1f }), fc.boolean()).map(([unit, upper]) => `\\u${hex4(unit, upper)}`),
);

const stringText = fc.array(stringPiece, { maxLength: 8 }).map((pieces) => `"${pieces.join("")}"`);

const digitString = (minLength: number, maxLength: number): fc.Arbitrary<string> =>
  fc.string({ unit: fc.constantFrom(..."0123456789".split("")), minLength, maxLength, size: "max" });

const integerText = fc
  .tuple(
    fc.boolean(),
    fc.oneof(
      fc.constant("0"),
      fc
        .tuple(fc.integer({ min: 1, max: 9 }), fc.oneof(digitString(0, 3), digitString(15, 40)))
        .map(([d, rest]) => `${d}${rest}`),
    ),
  )
  .map(([negative, magnitude]) => `${negative ? "-" : ""}${magnitude}`);

const numberText = fc
  .tuple(
    integerText,
    fc.option(digitString(1, 20), { nil: undefined }),
    fc.option(fc.tuple(fc.constantFrom("e", "E"), fc.constantFrom("", "+", "-"), fc.integer({ min: 0, max: 330 })), {
      nil: undefined,
    }),
  )
  .map(([integer, fraction, exponent]) => {
    const f = fraction === undefined ? "" : `.${fraction}`;
    const e = exponent === undefined ? "" : `${exponent[0]}${exponent[1]}${exponent[2]}`;
    return `${integer}${f}${e}`;
  })
  // Python refuses what overflows a double; the refusal has its own tests.
  .filter((lexeme) => Number.isFinite(Number(lexeme)));

// Mostly a few keys, some spelled two ways, so that duplicates are common.
const keyText = fc.oneof(
  {
    weight: 4,
    arbitrary: fc.constantFrom('"a"', '"\\u0061"', '"b"', '"😀"', '"\\ud83d\\ude00"', '"a/b~c"', '""', '"\\uE000"'),
  },
  { weight: 1, arbitrary: stringText },
);

const scalarText = fc.oneof(stringText, numberText, fc.constantFrom("true", "false", "null"));

const { valueText } = fc.letrec<{ valueText: string; arrayText: string; objectText: string }>((tie) => ({
  valueText: fc.oneof({ depthSize: "small", maxDepth: 5 }, scalarText, tie("arrayText"), tie("objectText")),
  arrayText: fc
    .tuple(whitespace, fc.array(fc.tuple(whitespace, tie("valueText"), whitespace), { maxLength: 6 }))
    .map(([empty, items]) =>
      items.length === 0 ? `[${empty}]` : `[${items.map(([a, v, b]) => `${a}${v}${b}`).join(",")}]`,
    ),
  objectText: fc
    .tuple(
      whitespace,
      fc.array(fc.tuple(whitespace, keyText, whitespace, whitespace, tie("valueText"), whitespace), {
        maxLength: 16,
        size: "medium",
      }),
    )
    .map(([empty, members]) =>
      members.length === 0
        ? `{${empty}}`
        : `{${members.map(([a, k, b, c, v, d]) => `${a}${k}${b}:${c}${v}${d}`).join(",")}}`,
    ),
}));

/** Arbitrary JSON text (valid, within the double range), with surrounding whitespace. */
export const jsonText = fc.tuple(whitespace, valueText, whitespace).map(([a, v, b]) => `${a}${v}${b}`);
