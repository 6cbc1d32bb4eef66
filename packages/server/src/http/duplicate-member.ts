/**
 * Finding a member name given twice in one JSON object (pure). `JSON.parse` keeps the last of them
 * and the lossless reader too, so a receipt `{"kind":"progress","kind":"completed"}` — stored as sent
 * — would be read as one thing by the server and possibly as another by whatever else reads the
 * stored text: a request body whose envelope holds one is refused instead. (Inside a result or any
 * other free-form value the last one wins, as in Python: that is what the byte measure and the
 * projection are specified on.) Names compare after unescaping (`"a"` and `"\u0061"` are the same).
 */

import { pointerAppend } from "@toolhost/protocol";

/** One open container while scanning: an object's names so far, or an array's current index. */
type Frame = { names: Set<string>; name: string | undefined } | { index: number };

/** A member name given twice: the name and the JSON pointer of its second occurrence. */
export interface DuplicateMember {
  readonly name: string;
  readonly pointer: string;
}

/**
 * The first member whose name its object already holds, looking into objects nested at most
 * `maxDepth` deep (1: the top-level object only), or undefined. `text` must be well-formed JSON (the
 * caller parsed it already): the scan only tracks strings and brackets.
 */
export function findDuplicateMember(text: string, maxDepth = Number.POSITIVE_INFINITY): DuplicateMember | undefined {
  const frames: Frame[] = [];
  let expectName = false;
  const length = text.length;
  for (let pos = 0; pos < length; pos++) {
    const c = text.charCodeAt(pos);
    if (c === 0x22) {
      const start = pos;
      pos = closingQuote(text, pos);
      const top = frames[frames.length - 1];
      if (!expectName || top === undefined || !("names" in top) || frames.length > maxDepth) continue;
      const raw = text.slice(start + 1, pos);
      const name = raw.includes("\\") ? (JSON.parse(text.slice(start, pos + 1)) as string) : raw;
      if (top.names.has(name)) return { name, pointer: pointerOf(frames.slice(0, -1), name) };
      top.names.add(name);
      top.name = name;
      expectName = false;
    } else if (c === 0x7b) {
      frames.push({ names: new Set(), name: undefined });
      expectName = true;
    } else if (c === 0x5b) {
      frames.push({ index: 0 });
      expectName = false;
    } else if (c === 0x7d || c === 0x5d) {
      frames.pop();
    } else if (c === 0x2c) {
      const top = frames[frames.length - 1];
      if (top === undefined) continue;
      if ("names" in top) expectName = true;
      else top.index++;
    }
  }
  return undefined;
}

/** The offset of the quote closing the string that opens at `open` (a quote preceded by an even run of backslashes). */
function closingQuote(text: string, open: number): number {
  let quote = text.indexOf('"', open + 1);
  for (;;) {
    // Unterminated (not well-formed after all): the scan ends.
    if (quote === -1) return text.length;
    let backslashes = 0;
    while (text.charCodeAt(quote - 1 - backslashes) === 0x5c) backslashes++;
    if (backslashes % 2 === 0) return quote;
    quote = text.indexOf('"', quote + 1);
  }
}

function pointerOf(parents: readonly Frame[], name: string): string {
  let pointer = "";
  for (const frame of parents) pointer = pointerAppend(pointer, "names" in frame ? (frame.name ?? "") : frame.index);
  return pointerAppend(pointer, name);
}
