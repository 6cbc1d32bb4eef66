/**
 * Named schemas for the OpenAPI document: every body schema exported by `@toolhost/protocol/wire`
 * becomes `components.schemas.<ExportName>`, and each place of the document holding that schema
 * (by structure) is replaced by a `$ref` to it. The route schemas stay plain (no `$id`), so request
 * validation is untouched; only the document names them.
 */

import * as wire from "@toolhost/protocol/wire";

/** A JSON value of the document. */
type Json = unknown;

/** Schemas named by their export, keyed by their canonical text. */
export class SchemaRegistry {
  private readonly byText = new Map<string, string>();
  private readonly schemas = new Map<string, Json>();

  /** Registers `schema` as `name`; the first name wins for structurally equal schemas. */
  add(name: string, schema: Json): void {
    const text = canonicalText(schema);
    if (!this.byText.has(text)) this.byText.set(text, name);
    this.schemas.set(name, schema);
  }

  /**
   * Replaces, throughout `node`, every registered schema by a `$ref`, and answers the components
   * referenced (each with its own nested schemas replaced too), sorted by name.
   */
  referenceAll(node: Json): { node: Json; components: Record<string, Json> } {
    const components = new Map<string, Json>();
    const visit = (value: Json, root: boolean): Json => {
      if (Array.isArray(value)) return value.map((item) => visit(item, false));
      if (value === null || typeof value !== "object") return value;
      const name = root ? undefined : this.byText.get(canonicalText(value));
      if (name !== undefined) {
        if (!components.has(name)) {
          components.set(name, null);
          components.set(name, visit(value, true));
        }
        return { $ref: `#/components/schemas/${name}` };
      }
      return Object.fromEntries(
        Object.entries(value as Record<string, Json>).map(([key, member]) => [key, visit(member, false)]),
      );
    };
    const replaced = visit(node, true);
    const sorted = [...components.entries()].sort(([a], [b]) => a.localeCompare(b));
    return { node: replaced, components: Object.fromEntries(sorted) };
  }
}

/** A registry of the wire schemas that are bodies (objects and unions; not path or query parameters). */
export function wireSchemaRegistry(): SchemaRegistry {
  const registry = new SchemaRegistry();
  for (const [name, value] of Object.entries(wire)) {
    if (!isBodySchema(name, value)) continue;
    registry.add(name, JSON.parse(JSON.stringify(value)));
  }
  return registry;
}

function isBodySchema(name: string, value: unknown): boolean {
  if (value === null || typeof value !== "object" || Array.isArray(value)) return false;
  if (/(Params|Query)$/.test(name)) return false;
  const schema = value as Record<string, unknown>;
  return schema.type === "object" || Array.isArray(schema.anyOf) || Array.isArray(schema.oneOf);
}

/** JSON text with object keys sorted, so equal structures compare equal whatever their key order. */
export function canonicalText(value: Json): string {
  return JSON.stringify(value, (_key, member: Json) =>
    member !== null && typeof member === "object" && !Array.isArray(member)
      ? Object.fromEntries(Object.entries(member as Record<string, Json>).sort(([a], [b]) => (a < b ? -1 : 1)))
      : member,
  );
}
