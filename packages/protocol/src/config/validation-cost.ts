/**
 * A work budget for one validation, so no argument check can hold the event loop.
 *
 * Size limits bound a schema, not the work of checking data against it: `anyOf` branches that
 * `$ref` the same definition double the work at every level (a 1 KiB schema of 24 such levels ran
 * out of memory), a `$ref` cycle that never descends into the data recurses forever, and Ajv's
 * `uniqueItems` compares every pair of items. So every subschema carries a cost mark (an extra
 * keyword on the compiled copy, never on the stored schema) whose check charges a meter, patterns
 * charge for the characters they scan, `uniqueItems` is replaced by a linear check, and a
 * validation that spends its budget stops with `WorkBudgetExceeded` instead of finishing late.
 */

import { _, type Ajv2020, type ErrorObject, type KeywordCxt } from "ajv/dist/2020.js";
import type { RegExpEngine } from "ajv/dist/types/index.js";
import { ProtocolError } from "../errors.js";
import { pointerAppend } from "../json/pointer.js";
import { isPlainObject, type PlainObject } from "./plain-json.js";
import { compileLinearPattern, type LinearPattern } from "./schema-pattern.js";
import { DATA_KEYWORDS, forEachSubschema, SCHEMA_MAP_KEYWORDS } from "./schema-walk.js";

/**
 * The work one validation may do, in units of about one keyword check: spending all of it the
 * costliest way (failing branches that record errors) took about 40 ms of CPU on a loaded 2-core
 * machine, while checking 10,000 array items against a schema of a few keywords spends about 135,000.
 */
export const VALIDATION_WORK_BUDGET = 200_000;

/** The keyword that carries a subschema's cost mark on the compiled copy; refused in tool schemas. */
export const COST_KEYWORD = "x-toolhost-cost";

/** Keywords whose check walks the members or items of the data (their cost grows with its size). */
const PER_ITEM_KEYWORDS = new Set([
  "additionalProperties",
  "patternProperties",
  "propertyNames",
  "unevaluatedProperties",
  "minProperties",
  "maxProperties",
  "items",
  "prefixItems",
  "contains",
  "unevaluatedItems",
]);

/** Keywords whose check reads a whole string cheaply (one unit per 32 characters). */
const PER_CHARACTER_KEYWORDS = new Set(["minLength", "maxLength", "const", "enum"]);

/** Characters per unit for `format`: its checks run regular expressions or a parse (`regex`) per character. */
const FORMAT_CHARACTERS_PER_UNIT = 1;

/** Characters per unit for the cheap string keywords. */
const CHEAP_CHARACTERS_PER_UNIT = 32;

/** Thrown from inside a validation that spent its budget; validation ends there. */
export class WorkBudgetExceeded extends Error {
  constructor() {
    super(`the check needs more than ${VALIDATION_WORK_BUDGET} units of work`);
    this.name = "WorkBudgetExceeded";
  }
}

/** The work left to the validation in progress; one meter per compiled schema (validation is synchronous). */
export class WorkMeter {
  private left = 0;

  /** Starts a validation with the full budget. */
  start(): void {
    this.left = VALIDATION_WORK_BUDGET;
  }

  /** Spends `units`; throws WorkBudgetExceeded once the budget is gone. */
  charge(units: number): void {
    this.left -= units;
    if (this.left < 0) throw new WorkBudgetExceeded();
  }
}

/**
 * A copy of `schema` with a cost mark on every subschema object: `[base, perItem, charactersPerUnit]`
 * (units per application, plus one per member or item of the data when a keyword walks them, plus
 * one per `charactersPerUnit` characters of string data when a keyword reads it; 0: none).
 */
export function withCostMarks(schema: PlainObject): PlainObject {
  const copy = structuredClone(schema);
  forEachSubschema(copy, "", (subschema) => {
    let base = 1;
    let perItem = 0;
    let charactersPerUnit = 0;
    for (const [keyword, value] of Object.entries(subschema)) {
      base += Array.isArray(value) ? value.length : isPlainObject(value) ? Object.keys(value).length : 1;
      if (PER_ITEM_KEYWORDS.has(keyword)) perItem = 1;
      if (PER_CHARACTER_KEYWORDS.has(keyword) && charactersPerUnit === 0) charactersPerUnit = CHEAP_CHARACTERS_PER_UNIT;
      if (keyword === "format") charactersPerUnit = FORMAT_CHARACTERS_PER_UNIT;
    }
    // Set after the walk read the keys, so the mark itself is not walked.
    subschema[COST_KEYWORD] = [base, perItem, charactersPerUnit];
  });
  return copy;
}

/**
 * Refuses what the meter could not see: its reserved keyword, and a `$ref` that points into data
 * (`#/default/…`, `#/enum/0`) or at a map of subschemas (`#/properties`), where Ajv would compile a
 * value as a schema that carries no cost mark.
 */
export function checkCostCoverage(schema: PlainObject, pointer: string, field: string): void {
  forEachSubschema(schema, pointer, (subschema, at) => {
    if (Object.hasOwn(subschema, COST_KEYWORD)) {
      throw new ProtocolError(
        "invalid_schema",
        `${field} must not use the keyword ${COST_KEYWORD}: toolhost reserves it`,
        pointerAppend(at, COST_KEYWORD),
        { field },
      );
    }
    for (const keyword of ["$ref", "$dynamicRef"]) {
      const target = subschema[keyword];
      if (typeof target !== "string" || pointsAtSubschema(target)) continue;
      throw new ProtocolError(
        "invalid_schema",
        `${field}: ${keyword} ${JSON.stringify(target)} must point at a subschema, not into enum, const, default, examples, required or at a map such as properties`,
        pointerAppend(at, keyword),
        { field },
      );
    }
  });
}

/** Follows a reference's JSON-pointer fragment through keyword kinds, the way `forEachSubschema` walks. */
function pointsAtSubschema(reference: string): boolean {
  const hash = reference.indexOf("#");
  if (hash === -1) return true;
  const fragment = reference.slice(hash + 1);
  if (!fragment.startsWith("/")) return true; // an anchor (`#name`) or the resource itself (`#`)
  let state: "schema" | "name" | "value" = "schema";
  for (const raw of fragment.slice(1).split("/")) {
    let token: string;
    try {
      token = decodeURIComponent(raw).replaceAll("~1", "/").replaceAll("~0", "~");
    } catch {
      return false;
    }
    if (state === "schema") {
      if (DATA_KEYWORDS.has(token)) return false;
      state = SCHEMA_MAP_KEYWORDS.has(token) ? "name" : "value";
    } else {
      // A name in a map, an array index or a member of an unknown keyword's value: a subschema.
      state = "schema";
    }
  }
  return state !== "name";
}

/**
 * A RegExp engine for Ajv (`code.regExp`) that runs `patterns` (compiled on RE2 beforehand) and
 * charges `meter` per character scanned. A pattern not among them (one a `$ref` reaches inside an
 * unknown keyword) is compiled here; one RE2 cannot run fails the compile.
 */
export function meteredRegExp(meter: WorkMeter, patterns: ReadonlyMap<string, LinearPattern>): RegExpEngine {
  const engine = (pattern: string, flags: string) => {
    let linear = patterns.get(pattern);
    if (linear === undefined) {
      const result = compileLinearPattern(pattern);
      if ("reason" in result) throw new Error(`pattern ${JSON.stringify(pattern)}: ${result.reason}`);
      linear = result;
    }
    const { programSize, test } = linear;
    return {
      test(input: string): boolean {
        // RE2 steps through its program per character; large programs cost more per character.
        meter.charge(1 + Math.ceil((input.length * (64 + programSize)) / 64));
        return test(input);
      },
      // Ajv shares one compiled pattern per distinct `toString()`: it must name the pattern.
      toString: () => `/${pattern}/${flags}`,
    };
  };
  engine.code = "linearRegExp";
  return engine;
}

/** Adds the cost-mark keyword and a linear `uniqueItems` to `ajv`, both charging `meter`. */
export function addMeteredKeywords(ajv: Ajv2020, meter: WorkMeter): Ajv2020 {
  const charge = (base: number, perItem: number, charactersPerUnit: number, data: unknown): void => {
    let units = base;
    if (charactersPerUnit > 0 && typeof data === "string") units += Math.ceil(data.length / charactersPerUnit);
    if (perItem === 1 && typeof data === "object" && data !== null) {
      units += Array.isArray(data) ? data.length : Object.keys(data).length;
    }
    meter.charge(units);
  };
  ajv.addKeyword({
    keyword: COST_KEYWORD,
    schemaType: "array",
    // Generated inline (one call per subschema): a `validate` keyword would double the compile time.
    code(cxt: KeywordCxt) {
      const [base = 1, perItem = 0, charactersPerUnit = 0] = cxt.schema as number[];
      const chargeName = cxt.gen.scopeValue("func", { ref: charge });
      cxt.gen.code(_`${chargeName}(${base}, ${perItem}, ${charactersPerUnit}, ${cxt.data})`);
    },
  });
  ajv.removeKeyword("uniqueItems");
  const uniqueItems = (unique: boolean, data: unknown[]): boolean => {
    uniqueItems.errors = undefined;
    if (!unique) return true;
    // Last index first, as Ajv's own check reports: "items ## j and i" with j > i.
    const seen = new Map<string, number>();
    for (let i = data.length - 1; i >= 0; i--) {
      const key = canonicalText(data[i]);
      meter.charge(1 + Math.ceil(key.length / 32));
      const j = seen.get(key);
      if (j !== undefined) {
        uniqueItems.errors = [
          {
            keyword: "uniqueItems",
            message: `must NOT have duplicate items (items ## ${j} and ${i} are identical)`,
            params: { i, j },
          },
        ];
        return false;
      }
      seen.set(key, i);
    }
    return true;
  };
  uniqueItems.errors = undefined as Partial<ErrorObject>[] | undefined;
  ajv.addKeyword({ keyword: "uniqueItems", type: "array", schemaType: "boolean", validate: uniqueItems });
  return ajv;
}

/** JSON text with object keys sorted: equal texts exactly for JSON Schema-equal values (1 and 1.0 alike). */
function canonicalText(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalText).join(",")}]`;
  if (typeof value === "object" && value !== null) {
    const keys = Object.keys(value).sort();
    return `{${keys.map((key) => `${JSON.stringify(key)}:${canonicalText((value as PlainObject)[key])}`).join(",")}}`;
  }
  return JSON.stringify(value);
}
