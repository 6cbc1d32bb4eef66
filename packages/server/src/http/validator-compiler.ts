/**
 * Schema validation of requests with Ajv (JSON Schema 2020-12, formats). Validation never changes the
 * data: no coercion, no defaults, no removal of unknown members, first error only (no allErrors
 * amplification). Bodies are JSON and must match exactly. Path parameters and query strings are text
 * by nature: their integer members are read from plain decimal digits first (`url-integers.ts`), and
 * nothing else is converted (Ajv's own coercion would take `1e1`, `0x10`, ` 5` and `Infinity`).
 */

import { Ajv2020, type Options } from "ajv/dist/2020.js";
import addFormats from "ajv-formats";
import type { FastifySchemaCompiler, FastifySchemaValidationError } from "fastify";
import { urlIntegerReader } from "./url-integers.js";

/** The Ajv options of every request part. */
export const BODY_AJV_OPTIONS = {
  coerceTypes: false,
  removeAdditional: false,
  useDefaults: false,
  allErrors: false,
  strict: true,
  logger: false,
} as const satisfies Options;

/** An Ajv instance with `options` and the standard formats (`date-time`, …). */
export function newAjv(options: Options): Ajv2020 {
  const ajv = new Ajv2020(options);
  // ajv-formats is CommonJS: under NodeNext its default import is the module, whose `default` is the plugin.
  addFormats.default(ajv);
  return ajv;
}

/** A Fastify validator compiler: bodies as JSON; the URL's integers read from their text, then the same checks. */
export function createValidatorCompiler(): FastifySchemaCompiler<unknown> {
  const ajv = newAjv(BODY_AJV_OPTIONS);
  return ({ schema, httpPart }) => {
    const validate = ajv.compile(schema as object);
    if (httpPart === "body") return validate;
    const readIntegers = urlIntegerReader(schema);
    return (data: unknown): boolean | { error: FastifySchemaValidationError[] } => {
      const problem = readIntegers(data);
      if (problem !== undefined) return { error: [problem] };
      return validate(data) ? true : { error: validate.errors ?? [] };
    };
  };
}
