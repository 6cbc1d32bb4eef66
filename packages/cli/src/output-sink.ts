/**
 * Writing results to a stream that may push back or break: waits for `drain` instead of buffering
 * without bound, and turns an asynchronous stream error (EPIPE when the reader went away, as in
 * `toolhost measure * | head -1`) into an OutputFailure the program reports, instead of a crash.
 */

import type { Writable } from "node:stream";

/** Writing to standard output or standard error failed; `cause` is the stream's error. */
export class OutputFailure extends Error {
  constructor(
    /** Which stream failed, for the report (`standard output`). */
    readonly streamName: string,
    override readonly cause: Error,
  ) {
    super(`${streamName}: ${cause.message}`);
    this.name = "OutputFailure";
  }
}

/** The first error each watched stream reported; one listener per stream, however many sinks wrap it. */
const streamFailures = new WeakMap<Writable, { error: Error | undefined }>();

function watchFailures(stream: Writable): { error: Error | undefined } {
  let state = streamFailures.get(stream);
  if (state === undefined) {
    const watched: { error: Error | undefined } = { error: undefined };
    // Without a listener an 'error' event (EPIPE) would be an uncaught exception, even after `main` returned.
    stream.on("error", (error: Error) => {
      watched.error ??= error;
    });
    streamFailures.set(stream, watched);
    state = watched;
  }
  return state;
}

/** A write-only view of a stream that honours backpressure and remembers the first stream error. */
export class OutputSink {
  readonly #failures: { error: Error | undefined };

  constructor(
    readonly stream: Writable,
    /** How the stream is named when it fails. */
    readonly streamName: string,
  ) {
    this.#failures = watchFailures(stream);
  }

  /** Writes `text`; resolves once the stream can take more; rejects with OutputFailure once the stream failed. */
  async write(text: string): Promise<void> {
    this.#throwIfFailed();
    const stream = this.stream;
    if (!stream.write(text)) {
      await new Promise<void>((resolve) => {
        const done = (): void => {
          stream.off("drain", done);
          stream.off("error", done);
          stream.off("close", done);
          resolve();
        };
        stream.on("drain", done);
        stream.on("error", done);
        stream.on("close", done);
      });
    }
    this.#throwIfFailed();
  }

  #throwIfFailed(): void {
    const error = this.#failures.error;
    if (error !== undefined) throw new OutputFailure(this.streamName, error);
    if (this.stream.destroyed) throw new OutputFailure(this.streamName, new Error("the stream was closed"));
  }
}
