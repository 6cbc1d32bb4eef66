// Shared by the config tests: run a throwing call and return the ProtocolError it threw.
import { expect } from "vitest";
import { type ErrorCode, isProtocolError, type ProtocolError } from "../src/index.js";

/** Calls `fn`, expects a ProtocolError with `code` at `pointer`, and returns it for further checks. */
export function expectProtocolError(fn: () => unknown, code: ErrorCode, pointer: string | undefined): ProtocolError {
  let thrown: unknown;
  try {
    fn();
  } catch (error) {
    thrown = error;
  }
  if (!isProtocolError(thrown)) throw new Error(`expected a ProtocolError ${code}, got ${String(thrown)}`);
  expect({ code: thrown.code, pointer: thrown.pointer }).toEqual({ code, pointer });
  return thrown;
}
