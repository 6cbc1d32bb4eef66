/**
 * Reading one input — a file or standard input — as bytes and decoding it as strict UTF-8, as the
 * API reads a body: a leading byte-order mark is refused (the API answers it `invalid_json`, so a
 * measure must not accept it), anything that is not well-formed UTF-8 is refused (never replaced with
 * U+FFFD, which would change the measure).
 */

import { readFile } from "node:fs/promises";
import type { Readable } from "node:stream";
import { ProtocolError } from "@toolhost/protocol";
import { firstInvalidUtf8Offset } from "./invalid-utf8.js";

/** The name that stands for standard input, as an argument and in output and error lines. */
export const STDIN_NAME = "-";

/** One input of a command: a file path, or standard input. */
export interface InputSource {
  /** How the input is named in output and error lines: the argument as given, `-` for standard input. */
  readonly name: string;
  /** The file to read; undefined for standard input. */
  readonly path: string | undefined;
}

/** The inputs named by FILE arguments: standard input when there are none, and wherever `-` appears. */
export function inputSources(files: readonly string[]): InputSource[] {
  if (files.length === 0) return [{ name: STDIN_NAME, path: undefined }];
  return files.map((file) => ({ name: file, path: file === STDIN_NAME ? undefined : file }));
}

// fatal: refuse instead of replacing; ignoreBOM: keep a leading BOM in the text, so it can be refused.
const STRICT_UTF8 = new TextDecoder("utf-8", { fatal: true, ignoreBOM: true });

/** Decodes strict UTF-8; refuses ill-formed bytes and a leading BOM with `invalid_json` at the root, as the API does. */
export function decodeUtf8Strict(bytes: Uint8Array): string {
  let text: string;
  try {
    text = STRICT_UTF8.decode(bytes);
  } catch (error) {
    if ((error as { code?: unknown }).code !== "ERR_ENCODING_INVALID_ENCODED_DATA") throw error;
    const offset = firstInvalidUtf8Offset(bytes);
    throw new ProtocolError(
      "invalid_json",
      `the input is not UTF-8: ill-formed byte sequence at byte offset ${offset}`,
      "",
      { offset },
    );
  }
  if (text.charCodeAt(0) === 0xfeff) {
    throw new ProtocolError("invalid_json", "the input starts with a byte order mark (the API refuses it too)", "");
  }
  return text;
}

/** Reads inputs as bytes or strict UTF-8 text; standard input is read once, however often `-` is named. */
export class InputReader {
  #stdin: Promise<Uint8Array> | undefined;

  constructor(readonly stdin: Readable) {}

  /** All bytes of one input. File errors (ENOENT, EISDIR, …) reject with the Node error as is. */
  bytes(source: InputSource): Promise<Uint8Array> {
    if (source.path !== undefined) return readFile(source.path);
    this.#stdin ??= readAll(this.stdin);
    return this.#stdin;
  }

  /** The text of one input, decoded as strict UTF-8. */
  async text(source: InputSource): Promise<string> {
    return decodeUtf8Strict(await this.bytes(source));
  }
}

async function readAll(stream: Readable): Promise<Uint8Array> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(typeof chunk === "string" ? Buffer.from(chunk, "utf8") : chunk);
  return Buffer.concat(chunks);
}
