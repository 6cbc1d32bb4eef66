/**
 * Wire schemas of the toolset routes (`/v1/toolsets`, docs/configuration.md): toolsets and their immutable,
 * numbered versions of tool definitions.
 *
 * The tool schemas here document the fields for OpenAPI with the protocol's own bounds. The rules
 * themselves live in `validateToolset` (`config/`), which the server runs on `tools` *before* schema
 * validation, so its codes are what a client sees (`field_removed`, `unknown_field`, `invalid_budget`,
 * `invalid_schema`, `duplicate_tool_name`); this schema then accepts every list `validateToolset` accepts.
 */

import { type Static, type TSchema, Type } from "typebox";
import { TIMEOUT_MS, type TOOL_DEFINITION_FIELDS, TOOL_NAME_PATTERN } from "../config/tool-definition.js";
import { TOOL_EFFECTS } from "../config/tool-effect.js";
import { RESULT_CONTEXT_BYTES } from "../projection/budget.js";
import { DisplayName } from "./bindings.js";
import { AnyObject, Id, Page, StoredText, Timestamp, WireObject } from "./common.js";

/** Largest version number (toolset versions are stored as 32-bit integers). */
export const VERSION_NUMBER_MAX = 2_147_483_647;

/** A version number of a toolset: 1, 2, … */
export function VersionNumber(description: string) {
  return Type.Integer({ description, minimum: 1, maximum: VERSION_NUMBER_MAX });
}

const { min, max } = RESULT_CONTEXT_BYTES;
const toolFields = {
  name: Type.String({
    description: "Unique within the toolset version; 1–128 of `A–Z a–z 0–9 _ . -`.",
    pattern: TOOL_NAME_PATTERN.source,
  }),
  description: Type.String({ description: 'Shown to the model. Default `""`.' }),
  binding_id: StoredText({
    description: "The executor binding that runs the tool: registered and in the credential's binding scope.",
    minLength: 1,
  }),
  input_schema: AnyObject('A JSON Schema (draft 2020-12) with `"type": "object"`; the call arguments must match it.'),
  output_schema: AnyObject("A JSON Schema (draft 2020-12) describing results. Default `{}` (any result)."),
  max_result_context_bytes: Type.Integer({
    description: `Bytes of compact JSON (UTF-8) of a result that the model sees; not tokens. ${min}–${max}, default ${RESULT_CONTEXT_BYTES.default}. \`max_result_tokens\` and \`max_result_bytes\` were removed (422 \`field_removed\`, no alias).`,
    minimum: min,
    maximum: max,
  }),
  effect: Type.Enum(Object.values(TOOL_EFFECTS), {
    description: '`"write"` (changes business state; the default) or `"read"`.',
  }),
  timeout_ms: Type.Integer({
    description: `The call's timeout in milliseconds: ${TIMEOUT_MS.min}–${TIMEOUT_MS.max}, default ${TIMEOUT_MS.default}.`,
    minimum: TIMEOUT_MS.min,
    maximum: TIMEOUT_MS.max,
  }),
} satisfies Record<(typeof TOOL_DEFINITION_FIELDS)[number], TSchema>;

/** A tool definition as sent: `name`, `binding_id` and `input_schema` required, the rest defaulted. */
export const ToolInput = WireObject("A tool definition. Strict: an unknown field is 422 `unknown_field`.", {
  name: toolFields.name,
  description: Type.Optional(toolFields.description),
  binding_id: toolFields.binding_id,
  input_schema: toolFields.input_schema,
  output_schema: Type.Optional(toolFields.output_schema),
  max_result_context_bytes: Type.Optional(toolFields.max_result_context_bytes),
  effect: Type.Optional(toolFields.effect),
  timeout_ms: Type.Optional(toolFields.timeout_ms),
});

/** A tool definition as sent. */
export type ToolInput = Static<typeof ToolInput>;

/** A tool definition as stored and answered: every default filled in. */
export const Tool = WireObject("A tool definition with every default filled in.", toolFields);

/** A tool definition as answered. */
export type Tool = Static<typeof Tool>;

const TOOLS_IN = Type.Array(ToolInput, {
  description: "The tools, in order; names unique. An empty list is valid.",
});
const TOOLS_OUT = Type.Array(Tool, { description: "The tools, in order, defaults filled in." });
const TOOLSET_ID = Id("The toolset's ID.");
const CREATED_AT = Timestamp("When this version was published.");

/** `POST /v1/toolsets`: a new toolset with its version 1. */
export const CreateToolsetRequest = WireObject("A new toolset and its first version.", {
  name: DisplayName("A label for people; not unique."),
  tools: TOOLS_IN,
});

/** `POST /v1/toolsets` body. */
export type CreateToolsetRequest = Static<typeof CreateToolsetRequest>;

/** `POST /v1/toolsets/{toolset_id}/versions`: the next version's tools. */
export const CreateToolsetVersionRequest = WireObject("The tools of a new toolset version.", { tools: TOOLS_IN });

/** `POST /v1/toolsets/{toolset_id}/versions` body. */
export type CreateToolsetVersionRequest = Static<typeof CreateToolsetVersionRequest>;

/** `POST /v1/toolsets` answer: the toolset and its version 1. */
export const CreatedToolset = WireObject("A created toolset with its version 1.", {
  toolset_id: TOOLSET_ID,
  version: Type.Literal(1, { description: "Always 1 for a new toolset." }),
  name: DisplayName("A label for people."),
  tools: TOOLS_OUT,
  created_at: CREATED_AT,
});

/** `POST /v1/toolsets` answer. */
export type CreatedToolset = Static<typeof CreatedToolset>;

/** One immutable toolset version. */
export const ToolsetVersion = WireObject("An immutable toolset version.", {
  toolset_id: TOOLSET_ID,
  version: VersionNumber("1, 2, … in publication order."),
  tools: TOOLS_OUT,
  created_at: CREATED_AT,
});

/** One immutable toolset version. */
export type ToolsetVersion = Static<typeof ToolsetVersion>;

/** A toolset (its versions are listed separately). */
export const Toolset = WireObject("A toolset: a name and its numbered versions.", {
  toolset_id: TOOLSET_ID,
  name: DisplayName("A label for people."),
  latest_version: VersionNumber("The highest version number."),
  created_at: Timestamp("When the toolset (and its version 1) was created."),
});

/** A toolset. */
export type Toolset = Static<typeof Toolset>;

/** `GET /v1/toolsets` answer. */
export const ToolsetList = Page("Toolsets in creation order.", Toolset);

/** `GET /v1/toolsets` answer. */
export type ToolsetList = Static<typeof ToolsetList>;

/** `GET /v1/toolsets/{toolset_id}/versions` answer. */
export const ToolsetVersionList = Page("Versions of one toolset, oldest first.", ToolsetVersion);

/** `GET /v1/toolsets/{toolset_id}/versions` answer. */
export type ToolsetVersionList = Static<typeof ToolsetVersionList>;

/** Path parameters of `/v1/toolsets/{toolset_id}` and its `/versions`. */
export const ToolsetIdParams = WireObject("Names one toolset.", { toolset_id: TOOLSET_ID });

/** Path parameters of `/v1/toolsets/{toolset_id}`. */
export type ToolsetIdParams = Static<typeof ToolsetIdParams>;

/** Path parameters of `/v1/toolsets/{toolset_id}/versions/{version}`. */
export const ToolsetVersionParams = WireObject("Names one toolset version.", {
  toolset_id: TOOLSET_ID,
  version: VersionNumber("The version number."),
});

/** Path parameters of `/v1/toolsets/{toolset_id}/versions/{version}`. */
export type ToolsetVersionParams = Static<typeof ToolsetVersionParams>;
