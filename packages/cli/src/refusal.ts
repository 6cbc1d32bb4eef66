/**
 * The one-line report of an input the command could not accept, printed on standard error:
 *
 *   toolhost: FILE: <code> at <pointer>: <message>     (the input is not acceptable JSON)
 *   toolhost: FILE: <errno code>: <message>            (the input could not be read)
 *
 * The JSON pointer is printed as is, except that the root (the empty pointer) reads `(root)` and
 * control characters are written as `\uXXXX`, so one refusal is always exactly one line.
 */

import { isProtocolError } from "@toolhost/protocol";

/** The name every diagnostic line starts with. */
export const PROGRAM_NAME = "toolhost";

/** How a JSON pointer is shown in a refusal line. */
export function displayPointer(pointer: string): string {
  if (pointer === "") return "(root)";
  // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters would break the one-line format.
  return pointer.replace(/[\u0000-\u001f\u007f]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`);
}

/**
 * The refusal line (with its newline) for an error met while reading or measuring input `name`, or
 * undefined when the error is neither a protocol refusal nor a coded system error (a bug: let it surface).
 */
export function refusalLine(name: string, error: unknown): string | undefined {
  if (isProtocolError(error)) {
    const where = error.pointer === undefined ? "" : ` at ${displayPointer(error.pointer)}`;
    return `${PROGRAM_NAME}: ${name}: ${error.code}${where}: ${error.message}\n`;
  }
  const code = errorCode(error);
  if (code === undefined || !(error instanceof Error)) return undefined;
  return `${PROGRAM_NAME}: ${name}: ${code}: ${systemMessage(error, code)}\n`;
}

function errorCode(error: unknown): string | undefined {
  const code = typeof error === "object" && error !== null ? (error as { code?: unknown }).code : undefined;
  return typeof code === "string" ? code : undefined;
}

/** Node writes `ENOENT: no such file or directory, open 'x.json'`; the line already names the code and file. */
function systemMessage(error: Error, code: string): string {
  let message = error.message.startsWith(`${code}: `) ? error.message.slice(code.length + 2) : error.message;
  const syscall = (error as NodeJS.ErrnoException).syscall;
  if (syscall !== undefined) {
    const suffix = message.lastIndexOf(`, ${syscall}`);
    if (suffix > 0) message = message.slice(0, suffix);
  }
  return message;
}
