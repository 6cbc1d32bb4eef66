// Reading the dry-run body's arguments and mock receipts losslessly from its exact text: spans found
// through strings, escapes, nesting, whitespace and repeated keys; each part read on its own.
import { compact, parseJson } from "@toolhost/protocol";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { dryRunInput, type LosslessPart } from "../../src/dryrun/body-sections.js";

const textOf = (part: LosslessPart | undefined): string => {
  if (part === undefined) return "(absent)";
  if (!part.ok) return `refused ${part.error.code} at ${part.error.pointer}`;
  return compact(part.value);
};

describe("dryRunInput", () => {
  it("finds the parts through whitespace, strings holding brackets and quotes, and escaped keys", () => {
    // The lone surrogate in `x` sends the reading down the scanning path.
    const body = ` {\n "x": "\\ud800", "tool_name" : "a\\"]}" ,\t"mock\\u005freceipts": [ {"r":"]\\\\"}, [1,[2]] ,"x}" , 12.50e1, true,null ],
      "arguments" :{"big": 12345678901234567890, "f": 1E5} } `;
    const input = dryRunInput(body);
    expect(textOf(input.arguments)).toBe('{"big":12345678901234567890,"f":100000.0}');
    expect(input.mockReceipts.map(textOf)).toEqual(['{"r":"]\\\\"}', "[1,[2]]", '"x}"', "125.0", "true", "null"]);
  });

  it("takes the last of repeated members, as JSON.parse does", () => {
    const input = dryRunInput('{"arguments":{"a":1},"mock_receipts":[1],"arguments":{"b":2},"mock_receipts":[]}');
    expect(textOf(input.arguments)).toBe('{"b":2}');
    expect(input.mockReceipts).toEqual([]);
  });

  it("answers absent parts as absent", () => {
    const input = dryRunInput('{"agent_version":"v","tool_name":"t"}');
    expect(input.arguments).toBeUndefined();
    expect(input.mockReceipts).toEqual([]);
  });

  it("reports a part the lossless reader refuses on that part alone, with the JSON.parse reading", () => {
    const input = dryRunInput('{"mock_receipts":[{"receipt_id":"r1","result":"\\ud800"},{"ok":1e400},{"fine":1}]}');
    const [first, second, third] = input.mockReceipts;
    expect(first).toMatchObject({ ok: false, error: { code: "lone_surrogate", pointer: "/result" } });
    expect(first?.ok === false && first.plain).toEqual({ receipt_id: "r1", result: "\ud800" });
    expect(second).toMatchObject({ ok: false, error: { code: "number_out_of_range", pointer: "/ok" } });
    expect(textOf(third)).toBe('{"fine":1}');
  });

  it("reads every element exactly as reading it alone would, in one pass or by scanning (property)", () => {
    fc.assert(
      fc.property(
        fc.array(fc.jsonValue(), { maxLength: 6 }),
        fc.jsonValue(),
        fc.constantFrom(undefined, 1, "\t", " \n "),
        // A lone surrogate elsewhere in the body makes the one-pass reading refuse it: the parts are then scanned for.
        fc.boolean(),
        (receipts, args, indent, poisoned) => {
          const envelope = {
            before: args,
            mock_receipts: receipts,
            arguments: args,
            ...(poisoned ? { after: "\ud800" } : {}),
          };
          const input = dryRunInput(JSON.stringify(envelope, null, indent));
          expect(textOf(input.arguments)).toBe(compact(parseJson(JSON.stringify(args))));
          expect(input.mockReceipts.map(textOf)).toEqual(
            receipts.map((receipt) => compact(parseJson(JSON.stringify(receipt)))),
          );
        },
      ),
      { numRuns: 400 },
    );
  });
});
