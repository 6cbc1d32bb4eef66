/**
 * Reading one member of a JSON request body losslessly (pure): run inputs and compensation arguments
 * keep what the client wrote (big integers, key order), which Fastify's
 * `JSON.parse` value cannot give. A value the lossless reader refuses (a lone surrogate, `1e400`) is a
 * 422 with the pointer into the body.
 */

import { isJsonObject, type JsonValue, objectGet, parseJson } from "@toolhost/protocol";

/** Member `name` of the body text `rawBody` (which schema validation already accepted). */
export function losslessMember(rawBody: string | undefined, name: string): JsonValue {
  const body = parseJson(rawBody ?? "{}");
  const value = isJsonObject(body) ? objectGet(body, name) : undefined;
  if (value === undefined) throw new Error(`the validated body has no member ${name}`);
  return value;
}
