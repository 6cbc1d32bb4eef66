// Checking one mock receipt (pure): which members each kind may carry, the shapes of error and
// progress, receipt IDs, and that only a valid completed receipt gets a preview.
import { ProtocolError, parseJson } from "@toolhost/protocol";
import { describe, expect, it } from "vitest";
import { checkMockReceipt } from "../../src/dryrun/mock-receipt.js";

const check = (text: string) => checkMockReceipt({ ok: true, value: parseJson(text) }, 1024);
const pointers = (text: string) => check(text).errors.map((error) => error.pointer);

describe("checkMockReceipt", () => {
  it.each([
    '{"receipt_id":"a","kind":"accepted"}',
    '{"receipt_id":"p","kind":"progress","progress":{"percent":10}}',
    '{"receipt_id":"c","kind":"completed","result":null}',
    '{"receipt_id":"c","kind":"completed","result_type":"opaque","result":"x"}',
    '{"receipt_id":"f","kind":"failed","error":{"code":"gone"}}',
    '{"receipt_id":"x","kind":"cancelled"}',
    '{"receipt_id":"r:1.a-b_c","kind":"reconciliation_required","error":{}}',
    '{"receipt_id":" any text, 任意 ","kind":"accepted"}',
  ])("accepts %s", (text) => {
    expect(check(text)).toMatchObject({ valid: true, errors: [] });
  });

  it.each([
    ['{"receipt_id":"a","kind":"accepted","progress":{}}', ["/progress"]],
    ['{"receipt_id":"p","kind":"progress","error":{}}', ["/error"]],
    ['{"receipt_id":"p","kind":"progress","progress":[1]}', ["/progress"]],
    ['{"receipt_id":"f","kind":"failed","error":"boom"}', ["/error"]],
    ['{"receipt_id":"f","kind":"failed","result_type":"json"}', ["/result_type", "/error"]],
    ['{"receipt_id":"f","kind":"failed"}', ["/error"]],
    ['{"receipt_id":"","kind":"accepted"}', ["/receipt_id"]],
    ['{"receipt_id":7,"kind":"accepted"}', ["/receipt_id"]],
    [`{"receipt_id":"${"a".repeat(129)}","kind":"accepted"}`, ["/receipt_id"]],
    ['{"receipt_id":"k"}', ["/kind"]],
    ['{"receipt_id":"k","kind":"completed","result":{},"grant":"g"}', ["/grant"]],
    ["[]", [""]],
  ])("reports %s at %j", (text, expected) => {
    expect(check(text).valid).toBe(false);
    expect(pointers(text)).toEqual(expected);
  });

  it("previews only a valid completed receipt, keeping the result's exact numbers", () => {
    const completed = check('{"receipt_id":"c","kind":"completed","result":{"n":12345678901234567890}}');
    expect(completed.preview).toMatchObject({ original_bytes: 26, truncated: false });
    expect(check('{"receipt_id":"a","kind":"accepted"}').preview).toBeUndefined();
    expect(check('{"receipt_id":"c","kind":"completed","result":{},"x":1}').preview).toBeUndefined();
  });

  it("names a receipt the lossless reader refused from its JSON.parse reading", () => {
    const error = new ProtocolError("lone_surrogate", "a string holds a lone surrogate", "/result/t");
    const refused = checkMockReceipt({ ok: false, error, plain: { receipt_id: "r", kind: "completed" } }, 1024);
    expect(refused).toEqual({
      receipt_id: "r",
      kind: "completed",
      valid: false,
      errors: [{ pointer: "/result/t", message: "lone_surrogate: a string holds a lone surrogate" }],
    });
  });
});
