/**
 * Turns schema-validation failures into the one error family (pure). The pointer names the member at
 * fault: the instance path, or for a missing or unknown member the member itself. A removed field
 * (`max_result_tokens`, `max_result_bytes`) is `field_removed` naming its replacement; any other
 * unknown member is `unknown_field`; everything else is `validation_failed`. All answer 422.
 */

import { ProtocolError, pointerAppend, REMOVED_TOOL_FIELDS } from "@toolhost/protocol";
import { NO_NUL_PATTERN } from "@toolhost/protocol/wire";

/** One Ajv error as Fastify hands it over. */
export interface SchemaError {
  readonly keyword: string;
  readonly instancePath: string;
  readonly params: Record<string, unknown>;
  readonly message?: string | undefined;
}

/** Where the failing value was: `body`, `querystring`, `params` or `headers`. */
export type RequestPart = string;

/** The ProtocolError for validation `errors` (at least one) of `part` of the request. */
export function validationProblem(errors: readonly SchemaError[], part: RequestPart): ProtocolError {
  const where = part === "body" ? "" : ` in the ${part === "querystring" ? "query" : part}`;
  const location = { in: part === "querystring" ? "query" : part };
  for (const error of errors) {
    const member = memberOf(error, "additionalProperty");
    if (member !== undefined && Object.hasOwn(REMOVED_TOOL_FIELDS, member)) {
      const replacement = REMOVED_TOOL_FIELDS[member as keyof typeof REMOVED_TOOL_FIELDS];
      return new ProtocolError(
        "field_removed",
        `${member} was removed; use ${replacement} (bytes of compact JSON of the result); there is no alias`,
        pointerAppend(error.instancePath, member),
        { ...location, field: member, replacement },
      );
    }
  }
  const primary = primaryError(errors);
  const pointer = pointerOf(primary);
  const unknown = memberOf(primary, "additionalProperty");
  if (unknown !== undefined) {
    return new ProtocolError("unknown_field", `unknown field ${JSON.stringify(unknown)}${where}`, pointer, {
      ...location,
      field: unknown,
    });
  }
  const missing = memberOf(primary, "missingProperty");
  if (missing !== undefined) {
    return new ProtocolError(
      "validation_failed",
      `missing required field ${JSON.stringify(missing)}${where}`,
      pointer,
      {
        ...location,
        keyword: primary.keyword,
      },
    );
  }
  // A union that no branch matched: its branch errors sit at the same pointer; name every alternative.
  const isUnion = errors.some((error) => error.keyword === "anyOf" || error.keyword === "oneOf");
  const siblings = isUnion ? unionAlternatives(errors, pointer) : [primary];
  const expectation = joinAlternatives(siblings.map(describe));
  const subject = pointer === "" ? (part === "body" ? "the body" : `the ${location.in}`) : `${pointer}${where}`;
  return new ProtocolError("validation_failed", `${subject} ${expectation}`, pointer, {
    ...location,
    keyword: primary.keyword,
    params: primary.params,
  });
}

/** The branch errors of a failed union at `pointer`; a scalar type error is dropped when a `const`/`enum` says more. */
function unionAlternatives(errors: readonly SchemaError[], pointer: string): SchemaError[] {
  const here = errors.filter((error) => !isCombinator(error) && pointerOf(error) === pointer);
  const specific = here.some((error) => error.keyword === "const" || error.keyword === "enum");
  const scalar = new Set(["string", "number", "integer", "boolean"]);
  const kept = here.filter((error) => !(specific && error.keyword === "type" && scalar.has(String(error.params.type))));
  return kept.length > 0 ? kept : here;
}

/** `must be "*" or array` from `must be "*"` and `must be array`. */
function joinAlternatives(messages: readonly string[]): string {
  const unique = [...new Set(messages)];
  const prefix = "must be ";
  if (unique.length > 1 && unique.every((message) => message.startsWith(prefix))) {
    return prefix + unique.map((message) => message.slice(prefix.length)).join(" or ");
  }
  return unique.join(" or ");
}

function isCombinator(error: SchemaError): boolean {
  return error.keyword === "anyOf" || error.keyword === "oneOf";
}

/** The error nearest the leaf: the most specific explanation (first one on ties). */
function primaryError(errors: readonly SchemaError[]): SchemaError {
  const candidates = errors.filter((error) => !isCombinator(error));
  let best = candidates[0] ?? errors[0];
  if (best === undefined) throw new Error("validationProblem needs at least one error");
  for (const error of candidates) if (depth(pointerOf(error)) > depth(pointerOf(best))) best = error;
  return best;
}

function depth(pointer: string): number {
  return pointer === "" ? 0 : pointer.split("/").length - 1;
}

function memberOf(error: SchemaError, param: "additionalProperty" | "missingProperty"): string | undefined {
  const value = error.params[param];
  return typeof value === "string" ? value : undefined;
}

/** The instance path, extended by the member for `required` and `additionalProperties` errors. */
function pointerOf(error: SchemaError): string {
  const member = memberOf(error, "missingProperty") ?? memberOf(error, "additionalProperty");
  return member === undefined ? error.instancePath : pointerAppend(error.instancePath, member);
}

function describe(error: SchemaError): string {
  const { params } = error;
  if (error.keyword === "pattern" && params.pattern === NO_NUL_PATTERN) {
    return "must not contain U+0000 (the character NUL): it cannot be stored as text";
  }
  if (error.keyword === "const") return `must be ${JSON.stringify(params.allowedValue)}`;
  if (error.keyword === "enum" && Array.isArray(params.allowedValues)) {
    return `must be one of ${params.allowedValues.map((value) => JSON.stringify(value)).join(", ")}`;
  }
  return error.message ?? `fails ${error.keyword}`;
}
