// The framing shared by every cross-instance notification (storage/engine/notify-payload.ts): every payload
// stays within its byte budget, the items that fit come back in order, and foreign payloads are ignored.

import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { decodeNotifyPayload, encodeNotifyPayloads } from "../../src/storage/engine/notify-payload.js";

const asString = (value: unknown): string | undefined => (typeof value === "string" ? value : undefined);

describe("notify payloads", () => {
  it("split any list under the budget and decode to the items that fit, in order", () => {
    fc.assert(
      fc.property(
        fc.array(fc.string({ unit: "grapheme", maxLength: 60 }), { maxLength: 80 }),
        fc.integer({ min: 60, max: 600 }),
        (items, maxBytes) => {
          const payloads = encodeNotifyPayloads(
            "origin-1",
            "public",
            "r",
            items.map((item) => JSON.stringify(item)),
            maxBytes,
          );
          const decoded: string[] = [];
          for (const payload of payloads) {
            expect(Buffer.byteLength(payload, "utf8")).toBeLessThanOrEqual(maxBytes);
            const message = decodeNotifyPayload(payload, "r", asString);
            expect(message?.origin).toBe("origin-1");
            expect(message?.schema).toBe("public");
            decoded.push(...(message?.items ?? []));
          }
          const frame = Buffer.byteLength('{"o":"origin-1","s":"public","r":[]}', "utf8");
          const fitting = items.filter((item) => frame + Buffer.byteLength(JSON.stringify(item), "utf8") <= maxBytes);
          expect(decoded).toEqual(fitting);
        },
      ),
    );
  });

  it("ignores what is not one of ours", () => {
    for (const payload of [undefined, "", "not json", "null", "[]", '{"o":1,"s":"x","r":[]}', '{"o":"a","s":"b"}']) {
      expect(decodeNotifyPayload(payload, "r", asString)).toBeUndefined();
    }
    expect(decodeNotifyPayload('{"o":"a","s":"b","r":["x",2]}', "r", asString)).toBeUndefined();
    expect(decodeNotifyPayload('{"o":"a","s":"b","r":["x"]}', "w", asString)).toBeUndefined();
  });
});
