/**
 * The receipt request as the document shows it: one schema per `kind`, in a `oneOf` discriminated
 * by `kind`, built from the members of the wire `ReceiptRequest`. The route validates the envelope
 * (`ReceiptRequest`) and the receipt rules decide per kind; this union says the same in the document.
 */

import { RECEIPT_KINDS } from "@toolhost/protocol";
import { ReceiptRequest } from "@toolhost/protocol/wire";

/** A JSON Schema object of the document. */
type SchemaObject = Record<string, unknown>;

/** The optional members each kind may carry, and which of them it requires. */
const KIND_MEMBERS: Readonly<Record<string, { readonly optional: string[]; readonly required: string[] }>> = {
  accepted: { optional: [], required: [] },
  progress: { optional: ["progress"], required: [] },
  completed: { optional: ["result_type"], required: ["result"] },
  failed: { optional: [], required: ["error"] },
  cancelled: { optional: ["error"], required: [] },
  reconciliation_required: { optional: ["error"], required: [] },
};

/** The envelope members every receipt carries. */
const ENVELOPE = ["receipt_id", "executor_id", "claim_id", "grant"] as const;

/** The component name of the receipt of `kind` (`accepted` → `AcceptedReceipt`). */
export function receiptComponentName(kind: string): string {
  return `${kind
    .split("_")
    .map((word) => word.charAt(0).toUpperCase() + word.slice(1))
    .join("")}Receipt`;
}

/** The per-kind schemas (named by receiptComponentName) and the union that replaces `ReceiptRequest`. */
export function receiptUnion(): { union: SchemaObject; variants: Record<string, SchemaObject> } {
  const envelope = JSON.parse(JSON.stringify(ReceiptRequest)) as { properties: Record<string, SchemaObject> };
  const variants: Record<string, SchemaObject> = {};
  const mapping: Record<string, string> = {};
  for (const kind of Object.values(RECEIPT_KINDS)) {
    const members = KIND_MEMBERS[kind];
    if (members === undefined) throw new Error(`the receipt union lacks the kind ${kind}`);
    const names = [...ENVELOPE, ...members.required, ...members.optional];
    const properties: Record<string, SchemaObject> = {};
    for (const name of names) properties[name] = envelope.properties[name] as SchemaObject;
    properties.kind = { type: "string", const: kind, description: `Always \`${kind}\`.` };
    const name = receiptComponentName(kind);
    variants[name] = {
      type: "object",
      description: `A receipt of kind \`${kind}\`.`,
      additionalProperties: false,
      required: [...ENVELOPE, "kind", ...members.required],
      properties,
    };
    mapping[kind] = `#/components/schemas/${name}`;
  }
  const union = {
    description: "A receipt of a claimed call, by `kind`; stored exactly as received.",
    oneOf: Object.values(mapping).map(($ref) => ({ $ref })),
    discriminator: { propertyName: "kind", mapping },
  };
  return { union, variants };
}
