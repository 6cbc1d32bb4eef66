/**
 * Schema validation of requests with Ajv (JSON Schema 2020-12, formats). Validation never changes the
 * data: no coercion, no defaults, no removal of unknown members, first error only (no allErrors
 * amplification). Bodies are JSON and must match exactly; path parameters and query strings are text
 * by nature, so there (only there) numbers and booleans are read from their text.
 */

import { Ajv2020, type Options } from "ajv/dist/2020.js";
import addFormats from "ajv-formats";
import type { FastifySchemaCompiler } from "fastify";

/** The Ajv options of body validation. */
export const BODY_AJV_OPTIONS = {
  coerceTypes: false,
  removeAdditional: false,
  useDefaults: false,
  allErrors: false,
  strict: true,
  logger: false,
} as const satisfies Options;

/** The Ajv options of path-parameter, query-string and header validation: scalars read from text. */
export const URL_AJV_OPTIONS = { ...BODY_AJV_OPTIONS, coerceTypes: true } as const satisfies Options;

/** An Ajv instance with `options` and the standard formats (`date-time`, …). */
export function newAjv(options: Options): Ajv2020 {
  const ajv = new Ajv2020(options);
  // ajv-formats is CommonJS: under NodeNext its default import is the module, whose `default` is the plugin.
  addFormats.default(ajv);
  return ajv;
}

/** A Fastify validator compiler: one Ajv instance for bodies, one for the URL and headers. */
export function createValidatorCompiler(): FastifySchemaCompiler<unknown> {
  const bodyAjv = newAjv(BODY_AJV_OPTIONS);
  const urlAjv = newAjv(URL_AJV_OPTIONS);
  return ({ schema, httpPart }) => (httpPart === "body" ? bodyAjv : urlAjv).compile(schema as object);
}
