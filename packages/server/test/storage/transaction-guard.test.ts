/** The transaction guard (transaction-scope.ts) is on under the test runner or when asked for, off otherwise. */

import { execFileSync } from "node:child_process";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { transactionGuardEnabled } from "../../src/storage/engine/transaction-scope.js";

const COMPILED = fileURLToPath(new URL("../../dist/storage/engine/transaction-scope.js", import.meta.url));

/** Whether the guard is on in a fresh process with `env` (and without the test runner's variables). */
function guardIn(env: Record<string, string>): boolean {
  const { VITEST: _vitest, TOOLHOST_TRANSACTION_GUARD: _guard, ...inherited } = process.env;
  const script = `import(${JSON.stringify(COMPILED)}).then((m) => process.stdout.write(String(m.transactionGuardEnabled())))`;
  return execFileSync(process.execPath, ["-e", script], { env: { ...inherited, ...env }, encoding: "utf8" }) === "true";
}

describe("transaction guard", () => {
  it("is on under the test runner", () => {
    expect(transactionGuardEnabled()).toBe(true);
  });

  it("is off in a server process unless TOOLHOST_TRANSACTION_GUARD=on; =off turns it off under tests", () => {
    expect(guardIn({})).toBe(false);
    expect(guardIn({ TOOLHOST_TRANSACTION_GUARD: "on" })).toBe(true);
    expect(guardIn({ VITEST: "true" })).toBe(true);
    expect(guardIn({ VITEST: "true", TOOLHOST_TRANSACTION_GUARD: "off" })).toBe(false);
  });
});
