/**
 * The `--budget BYTES` option: a tool's max_result_context_bytes, checked by the protocol's own rule
 * (an integer from 1,024 to 32,768) so the CLI never accepts a budget the server would refuse.
 */

import { checkBudget, isProtocolError } from "@toolhost/protocol";
import { InvalidArgumentError } from "commander";

/**
 * Parses a `--budget` value: plain decimal digits only (`1e4`, `2048.0` and `0x800` are refused, not
 * reinterpreted). Throws commander's InvalidArgumentError, which the program reports as a usage error.
 */
export function parseBudgetOption(value: string): number {
  // Non-digit text goes to checkBudget as the string itself, so its message quotes what was typed.
  const budget: unknown = /^[0-9]+$/.test(value) ? Number(value) : value;
  try {
    return checkBudget(budget, "--budget");
  } catch (error) {
    if (isProtocolError(error)) throw new InvalidArgumentError(error.message);
    throw error;
  }
}
