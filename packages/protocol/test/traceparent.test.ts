// W3C traceparent (version 00) read and written: what the server honours and the runner parents its
// handler span on; invalid values are undefined, never a made-up context.
import { describe, expect, it } from "vitest";
import { readTraceparent, writeTraceparent } from "../src/index.js";

const TRACE_ID = "4bf92f3577b34da6a3ce929d0e0e4736";
const SPAN_ID = "00f067aa0ba902b7";

describe("traceparent", () => {
  it("reads the parts and the sampled flag; writes them back", () => {
    expect(readTraceparent(`00-${TRACE_ID}-${SPAN_ID}-01`)).toEqual({
      traceId: TRACE_ID,
      spanId: SPAN_ID,
      sampled: true,
    });
    expect(readTraceparent(`00-${TRACE_ID}-${SPAN_ID}-00`)?.sampled).toBe(false);
    // Upper case and surrounding blanks are tolerated; a later version may carry more after the flags.
    expect(readTraceparent(` 00-${TRACE_ID.toUpperCase()}-${SPAN_ID}-03 `)).toEqual({
      traceId: TRACE_ID,
      spanId: SPAN_ID,
      sampled: true,
    });
    expect(readTraceparent(`01-${TRACE_ID}-${SPAN_ID}-01-future`)?.traceId).toBe(TRACE_ID);
    for (const value of [`00-${TRACE_ID}-${SPAN_ID}-01`, `00-${TRACE_ID}-${SPAN_ID}-00`]) {
      const parts = readTraceparent(value);
      expect(parts === undefined ? undefined : writeTraceparent(parts)).toBe(value);
    }
  });

  it("refuses what is not a valid traceparent", () => {
    for (const bad of [
      undefined,
      null,
      42,
      "",
      `ff-${TRACE_ID}-${SPAN_ID}-01`,
      `00-${"0".repeat(32)}-${SPAN_ID}-01`,
      `00-${TRACE_ID}-${"0".repeat(16)}-01`,
      `00-${TRACE_ID}-${SPAN_ID}-01-extra`,
      `00-${TRACE_ID.slice(1)}-${SPAN_ID}-01`,
      `00-${TRACE_ID}-${SPAN_ID}`,
    ]) {
      expect(readTraceparent(bad), String(bad)).toBeUndefined();
    }
  });
});
