/**
 * Indentation for `--pretty`: whitespace added to compact JSON text between tokens, never inside
 * strings, so numbers keep their exact digits and keys their order (reparsing gives the same value).
 */

/** Indents compact JSON text (as `compact()` writes it) by `indent` spaces a level: `"key": value`, one member a line. */
export function indentJson(compactText: string, indent = 2): string {
  const text = compactText;
  const length = text.length;
  let out = "";
  let depth = 0;
  let runStart = 0; // start of the text copied through unchanged (strings, numbers, literals)
  const newline = (): string => `\n${" ".repeat(depth * indent)}`;
  for (let i = 0; i < length; i++) {
    const c = text.charCodeAt(i);
    if (c === 0x22) {
      // Skip the string: compact text escapes only with a backslash, and `\"` never ends it.
      i++;
      while (i < length && text.charCodeAt(i) !== 0x22) i += text.charCodeAt(i) === 0x5c ? 2 : 1;
      continue;
    }
    let insert: string;
    if (c === 0x7b || c === 0x5b) {
      const close = c === 0x7b ? 0x7d : 0x5d;
      if (text.charCodeAt(i + 1) === close) {
        i++; // an empty container stays `{}` / `[]`
        continue;
      }
      depth++;
      insert = text[i] + newline();
    } else if (c === 0x7d || c === 0x5d) {
      depth--;
      insert = newline() + text[i];
    } else if (c === 0x2c) {
      insert = `,${newline()}`;
    } else if (c === 0x3a) {
      insert = ": ";
    } else {
      continue;
    }
    out += text.slice(runStart, i) + insert;
    runStart = i + 1;
  }
  return out + text.slice(runStart);
}
