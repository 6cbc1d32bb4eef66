// Reading request bodies (pure): a member name given twice in one object and a lone surrogate are
// refused with the pointer of the value at fault; everything else reads as JSON.parse reads it.
import { isProtocolError } from "@toolhost/protocol";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { findDuplicateMember } from "../../src/http/duplicate-member.js";
import { readJsonBody } from "../../src/http/json-body.js";

const bytes = (text: string): Uint8Array => new TextEncoder().encode(text);

/** The code and pointer `readJsonBody` refuses `text` with (undefined when it reads it). */
function refusal(text: string, keepLoneSurrogates = false): { code: string; pointer?: string } | undefined {
  try {
    readJsonBody(bytes(text), { keepLoneSurrogates });
    return undefined;
  } catch (error) {
    if (!isProtocolError(error)) throw error;
    return error.pointer === undefined ? { code: error.code } : { code: error.code, pointer: error.pointer };
  }
}

describe("findDuplicateMember", () => {
  it("finds a member name given twice, wherever it is, also when spelled with escapes", () => {
    expect(findDuplicateMember('{"kind":"progress","kind":"completed"}')).toEqual({ name: "kind", pointer: "/kind" });
    expect(findDuplicateMember('{"a":[1,{"b":{"c":1,"c":2}}]}')?.pointer).toBe("/a/1/b/c");
    expect(findDuplicateMember('{"name":"x","n\\u0061me":"y"}')).toEqual({ name: "name", pointer: "/name" });
    expect(findDuplicateMember('[{"a/b":1},{"x":0,"a/b":1,"a/b":2}]')?.pointer).toBe("/1/a~1b");
    expect(findDuplicateMember('{"":1,"":2}')?.pointer).toBe("/");
  });

  it("looks only as deep as asked: 1 is the envelope", () => {
    expect(findDuplicateMember('{"result":{"a":1,"a":2},"b":[{"c":1,"c":1}]}', 1)).toBeUndefined();
    expect(findDuplicateMember('{"result":{"a":1,"a":2},"result":3}', 1)).toEqual({
      name: "result",
      pointer: "/result",
    });
    expect(findDuplicateMember('{"result":{"a":1,"a":2}}', 2)?.pointer).toBe("/result/a");
  });

  it("never sees a duplicate where there is none: same names in sibling objects, names inside strings", () => {
    expect(findDuplicateMember('{"a":{"x":1},"b":{"x":1},"c":"\\"a\\":1,\\"a\\":2","d":["a","a"]}')).toBeUndefined();
    expect(findDuplicateMember('{"a\\\\":1,"a":2}')).toBeUndefined();
  });

  it("ends on a text that is not well-formed after all", () => {
    expect(findDuplicateMember('{"a":"unterminated')).toBeUndefined();
  });

  it("finds nothing in any text JSON.stringify writes, and finds a duplicate added to any object", () => {
    fc.assert(
      fc.property(fc.jsonValue(), (value) => {
        expect(findDuplicateMember(JSON.stringify(value))).toBeUndefined();
        const text = JSON.stringify({ wrapper: value, k: 1 });
        expect(findDuplicateMember(`${text.slice(0, -1)},"k":2}`)).toEqual({ name: "k", pointer: "/k" });
      }),
    );
  });
});

describe("readJsonBody", () => {
  it("refuses a member name given twice with 400 duplicate_member at its pointer", () => {
    expect(refusal('{"receipt_id":"r","kind":"accepted","kind":"completed"}')).toEqual({
      code: "duplicate_member",
      pointer: "/kind",
    });
  });

  it("lets the last duplicate win inside a payload, as the byte measure and the projection specify", () => {
    expect(refusal('{"kind":"completed","result":{"status":"ok","status":"partial"}}')).toBeUndefined();
  });

  it("refuses a lone surrogate in any string or member name with 422 lone_surrogate at its pointer", () => {
    expect(refusal('{"name":"a\\ud800b"}')).toEqual({ code: "lone_surrogate", pointer: "/name" });
    expect(refusal('{"x":[1,{"y":"\\udc00"}]}')).toEqual({ code: "lone_surrogate", pointer: "/x/1/y" });
    expect(refusal('{"\\udbff":1}')).toEqual({ code: "lone_surrogate", pointer: "/\udbff" });
    expect(refusal('{"high then high":"\\ud800\\ud800"}')?.code).toBe("lone_surrogate");
    // A pair is one character; an escaped backslash followed by "ud800" is just text.
    expect(refusal('{"pair":"\\ud83d\\ude00","text":"\\\\ud800"}')).toBeUndefined();
    expect(refusal('{"name":"a\\ud800b"}', true)).toBeUndefined();
  });

  it("keeps U+0000 and the exact text: which strings may hold it is the schema's business", () => {
    const text = '{"message":"a\\u0000b"}';
    expect(readJsonBody(bytes(text))).toEqual({ text, value: { message: "a\u0000b" } });
  });
});
