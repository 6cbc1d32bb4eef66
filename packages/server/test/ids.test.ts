// Server-made IDs: the documented format, and order within one process (a later ID sorts after an
// earlier one, also within one millisecond and when the clock steps back).
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { newId } from "../src/ids.js";

const ID = /^run_[0-9a-hjkmnp-tv-z]{26}$/;

describe("newId", () => {
  it("is the prefix, an underscore and 26 lowercase Crockford base32 characters, time first", () => {
    // The time part is the millisecond in base32, most significant digit first (the first ID of the
    // file, so no earlier one holds it back).
    const id = newId("run", 2 ** 47 + 33);
    expect(id).toMatch(ID);
    expect(id.slice(4, 14)).toBe("4000000011");
  });

  it("answers strictly growing IDs for any sequence of times, same milliseconds and steps back included", () => {
    fc.assert(
      fc.property(fc.array(fc.integer({ min: 0, max: 2 ** 44 }), { minLength: 1, maxLength: 50 }), (steps) => {
        let previous = newId("run", 0).slice(4);
        let atMs = 2 ** 45;
        for (const step of steps) {
          // A third of the times repeat the millisecond, a third go back, a third go forward.
          atMs = step % 3 === 0 ? atMs : step % 3 === 1 ? atMs - (step % 1000) : atMs + (step % 1000);
          const id = newId("run", atMs);
          expect(id).toMatch(ID);
          expect(id.slice(4) > previous).toBe(true);
          previous = id.slice(4);
        }
      }),
    );
  });

  it("draws a fresh random part for each new millisecond", () => {
    const randoms = new Set<string>();
    const start = 2 ** 48;
    for (let i = 0; i < 1000; i++) randoms.add(newId("run", start + i).slice(14));
    expect(randoms.size).toBe(1000);
  });
});
