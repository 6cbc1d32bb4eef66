/**
 * The cut of a multimodal result (docs/projection.md): `{"content":[block,…]}` where only text blocks are cut.
 * Non-text blocks (image, audio, file) stay byte for byte and do not count against the budget; block
 * order and every other member are kept. What counts is the measure of the result minus the measure
 * of each non-text block.
 *
 * Space for text is shared fairly: a text that fits its share (plus the marker it would need), or is
 * no longer than the marker, stays whole and its unused share goes to the others; each remaining text
 * keeps a head and a tail around the omission marker; space still left over after that is handed out
 * in block order, so no cut text could keep one more character and none costs as much as it whole.
 */

import { ProtocolError } from "../errors.js";
import { measure, quotedStringBytes } from "../json/measure.js";
import {
  isJsonObject,
  type JsonObject,
  type JsonValue,
  objectEntries,
  objectGet,
  type PlainJsonObject,
} from "../json/value.js";
import { TEXT_OMISSION_MARKER } from "./context-preview.js";
import { cutHeadTail, growHeadTail, type HeadTailCut } from "./head-tail.js";

/** The parts of a multimodal result the projection works on. */
interface MultimodalParts {
  root: JsonObject | PlainJsonObject;
  blocks: JsonValue[];
  /** Indexes into `blocks` of text blocks, with their text. */
  texts: { index: number; text: string }[];
  /** Bytes of all non-text blocks. */
  nonTextBytes: number;
}

/** The block types that stay verbatim and are not counted against the budget. */
const MEDIA_TYPES: ReadonlySet<JsonValue> = new Set(["image", "audio", "file"]);

/**
 * Splits a multimodal result into its blocks. Refuses a value without a `content` array of blocks, and
 * any block that is neither `{"type":"text","text":string}` nor an image, audio or file block with
 * string `mime_type` and `data`: an unknown block would otherwise escape the budget.
 */
export function multimodalParts(result: JsonValue): MultimodalParts {
  if (!isJsonObject(result)) {
    throw new ProtocolError("invalid_result", "a multimodal result must be an object with a content array", "");
  }
  const content = objectGet(result, "content");
  if (!Array.isArray(content)) {
    throw new ProtocolError("invalid_result", "a multimodal result must hold a content array", "/content");
  }
  const texts: MultimodalParts["texts"] = [];
  let nonTextBytes = 0;
  content.forEach((block, index) => {
    if (!isJsonObject(block)) {
      throw new ProtocolError("invalid_result", "each content block must be an object", `/content/${index}`);
    }
    const type = objectGet(block, "type");
    const text = objectGet(block, "text");
    if (type === "text") {
      if (typeof text !== "string") {
        throw new ProtocolError("invalid_result", "a text block must hold a string text", `/content/${index}/text`);
      }
      texts.push({ index, text });
      return;
    }
    if (type === undefined || !MEDIA_TYPES.has(type)) {
      throw new ProtocolError(
        "invalid_result",
        'a content block type must be "text", "image", "audio" or "file"',
        `/content/${index}/type`,
      );
    }
    for (const member of ["mime_type", "data"]) {
      if (typeof objectGet(block, member) !== "string") {
        throw new ProtocolError(
          "invalid_result",
          `a ${type} block must hold a string ${member}`,
          `/content/${index}/${member}`,
        );
      }
    }
    nonTextBytes += measure(block);
  });
  return { root: result, blocks: content, texts, nonTextBytes };
}

/**
 * Projects a multimodal result; `counted` is its measure less its non-text blocks. Answers the result
 * itself when no text is cut.
 */
export function truncateMultimodal(parts: MultimodalParts, counted: number, budget: number): JsonValue {
  const marker = quotedStringBytes(TEXT_OMISSION_MARKER) - 2;
  const costs = parts.texts.map(({ text }) => quotedStringBytes(text) - 2);
  const fixed = counted - costs.reduce((sum, cost) => sum + cost, 0);
  const space = budget - fixed;

  // Fair shares: texts that fit their share stay whole until no more do.
  const whole = new Set<number>();
  let cutCount = parts.texts.length;
  let shareSpace = space;
  for (;;) {
    const share = Math.floor((shareSpace - cutCount * marker) / Math.max(1, cutCount));
    let changed = false;
    costs.forEach((cost, i) => {
      // A text no longer than the bare marker stays whole even when the share is negative: cutting it
      // would make it longer and claim an omission that did not happen.
      if (!whole.has(i) && cost <= Math.max(0, share) + marker) {
        whole.add(i);
        shareSpace -= cost;
        cutCount--;
        changed = true;
      }
    });
    if (!changed || cutCount === 0) break;
  }

  const cuts = new Map<number, HeadTailCut>();
  const cutIndexes = costs.map((_, i) => i).filter((i) => !whole.has(i));
  // Every text stays whole (what is over budget is not text): nothing to cut, the result is unchanged.
  if (cutIndexes.length === 0) return parts.root;
  const textSpace = Math.max(0, shareSpace - cutCount * marker);
  const base = Math.floor(textSpace / Math.max(1, cutCount));
  let spare = textSpace - base * cutCount;
  let used = 0;
  cutIndexes.forEach((i, order) => {
    const allowance = base + (order < spare ? 1 : 0);
    const cut = cutHeadTail(parts.texts[i]?.text ?? "", allowance);
    cuts.set(i, cut);
    used += cut.escapedBytes;
  });
  // Hand what character boundaries left over to the texts in block order: a text that the spare lets
  // stay whole (it costs no more than its cut, marker and spare) stays whole; the others grow a
  // character at a time (a fresh, wider cut could keep fewer bytes). Keeping a text whole can free
  // bytes an earlier text could use, so go round until nothing changes.
  spare = textSpace - used;
  for (let changed = true; changed; ) {
    changed = false;
    for (const i of cutIndexes) {
      const before = cuts.get(i);
      if (before === undefined) continue;
      const cost = costs[i] as number;
      if (cost <= before.escapedBytes + marker + spare) {
        cuts.delete(i);
        spare -= cost - before.escapedBytes - marker;
        changed = true;
        continue;
      }
      const room = before.escapedBytes + spare;
      const after = growHeadTail(parts.texts[i]?.text ?? "", before, (escapedBytes) => escapedBytes <= room);
      if (after.escapedBytes === before.escapedBytes) continue;
      cuts.set(i, after);
      spare -= after.escapedBytes - before.escapedBytes;
      changed = true;
    }
  }
  if (cuts.size === 0) return parts.root;

  const replaced = new Map<number, string>();
  for (const [i, cut] of cuts) {
    const entry = parts.texts[i];
    if (entry) replaced.set(entry.index, `${cut.head}${TEXT_OMISSION_MARKER}${cut.tail}`);
  }
  const blocks = parts.blocks.map((block, index) => {
    const text = replaced.get(index);
    if (text === undefined || !isJsonObject(block)) return block;
    const copy: JsonObject = new Map();
    for (const [key, value] of objectEntries(block)) copy.set(key, key === "text" ? text : value);
    return copy;
  });
  const root: JsonObject = new Map();
  for (const [key, value] of objectEntries(parts.root)) root.set(key, key === "content" ? blocks : value);
  return root;
}
