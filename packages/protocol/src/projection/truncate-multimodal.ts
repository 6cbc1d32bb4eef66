/**
 * The cut of a multimodal result (SPEC §3): `{"content":[block,…]}` where only text blocks are cut.
 * Non-text blocks (image, audio, file) stay byte for byte and do not count against the budget; block
 * order and every other member are kept. What counts is the measure of the result minus the measure
 * of each non-text block.
 *
 * Space for text is shared fairly: a text that fits its share (plus the marker it would need) stays
 * whole and its unused share goes to the others; each remaining text keeps a head and a tail around
 * the omission marker; space still left over after that is handed out in block order, so no text
 * could keep one more character.
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
import { cutHeadTail, type HeadTailCut } from "./head-tail.js";

/** The parts of a multimodal result the projection works on. */
interface MultimodalParts {
  root: JsonObject | PlainJsonObject;
  blocks: JsonValue[];
  /** Indexes into `blocks` of text blocks, with their text. */
  texts: { index: number; text: string }[];
  /** Bytes of all non-text blocks. */
  nonTextBytes: number;
}

/** Splits a multimodal result into its blocks; refuses a value without a `content` array of objects. */
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
    const text = objectGet(block, "text");
    if (objectGet(block, "type") === "text" && typeof text === "string") texts.push({ index, text });
    else nonTextBytes += measure(block);
  });
  return { root: result, blocks: content, texts, nonTextBytes };
}

/** Projects a multimodal result; `counted` is its measure less its non-text blocks. */
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
      if (!whole.has(i) && cost <= share + marker) {
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
  // Hand what character boundaries left over to the texts in block order.
  spare = textSpace - used;
  for (const i of cutIndexes) {
    const before = cuts.get(i) as HeadTailCut;
    const after = cutHeadTail(parts.texts[i]?.text ?? "", before.escapedBytes + spare);
    cuts.set(i, after);
    spare -= after.escapedBytes - before.escapedBytes;
  }

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
