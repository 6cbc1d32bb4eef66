/**
 * The arguments digest (docs/projection.md): `sha256:` + hex SHA-256 of the UTF-8 of the canonical text with
 * keys sorted by code point. Executors recompute it to check that the arguments they were given are
 * the ones the run produced.
 */

import { createHash } from "node:crypto";
import { compact } from "./json/compact.js";
import type { JsonValue } from "./json/value.js";

/** `sha256:<hex>` of the sorted canonical compact text of `args`. */
export function argumentsDigest(args: JsonValue): string {
  return `sha256:${createHash("sha256")
    .update(compact(args, { sortKeys: true }), "utf8")
    .digest("hex")}`;
}
