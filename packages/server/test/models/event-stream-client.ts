// Reading a run's event stream in tests: with fetch as a browser would (frames as they arrive), or
// through a raw socket that does not read until told to (a client that stalls).

import net from "node:net";
import { BOOTSTRAP_SECRET } from "../http/http-harness.js";

/** One parsed SSE frame. */
export interface Frame {
  id?: number;
  event?: string;
  // biome-ignore lint/suspicious/noExplicitAny: tests read arbitrary event data.
  data?: any;
  comment?: string;
}

/** An open stream: frames as they arrive, and whether it ended. */
export interface OpenStream {
  readonly status: number;
  readonly headers: Headers;
  readonly frames: Frame[];
  /** Resolves when the server ends the stream. */
  readonly ended: Promise<void>;
  /** Resolves when at least `count` frames (matching `filter`) arrived. */
  until(count: number, filter?: (frame: Frame) => boolean): Promise<Frame[]>;
  /** Drops the connection (as a browser going away). */
  close(): void;
}

/** One frame of SSE text (without its blank line). */
export function parseFrame(text: string): Frame {
  const frame: Frame = {};
  for (const line of text.split("\n")) {
    if (line.startsWith(":")) frame.comment = line.slice(1).trim();
    else if (line.startsWith("id: ")) frame.id = Number(line.slice(4));
    else if (line.startsWith("event: ")) frame.event = line.slice(7);
    else if (line.startsWith("data: ")) frame.data = JSON.parse(line.slice(6));
  }
  return frame;
}

/** Opens `runId`'s event stream with `key` (default: the bootstrap key), reading it as it comes. */
export async function openStream(
  url: string,
  runId: string,
  lastEventId?: number,
  key: string = BOOTSTRAP_SECRET,
): Promise<OpenStream> {
  const controller = new AbortController();
  const response = await fetch(`${url}/v1/runs/${runId}/events`, {
    headers: {
      authorization: `Bearer ${key}`,
      ...(lastEventId === undefined ? {} : { "last-event-id": String(lastEventId) }),
    },
    signal: controller.signal,
  });
  const frames: Frame[] = [];
  const listeners = new Set<() => void>();
  const ended = (async () => {
    if (response.body === null) return;
    const decoder = new TextDecoder();
    let buffer = "";
    try {
      for await (const chunk of response.body) {
        buffer += decoder.decode(chunk as Uint8Array, { stream: true });
        let end = buffer.indexOf("\n\n");
        while (end >= 0) {
          frames.push(parseFrame(buffer.slice(0, end)));
          buffer = buffer.slice(end + 2);
          end = buffer.indexOf("\n\n");
        }
        for (const listener of listeners) listener();
      }
    } catch {
      // Dropped by the test.
    }
  })();
  return {
    status: response.status,
    headers: response.headers,
    frames,
    ended,
    until: async (count, filter = () => true) => {
      const deadline = Date.now() + 15_000;
      while (frames.filter(filter).length < count) {
        if (Date.now() > deadline) throw new Error(`only ${frames.filter(filter).length} of ${count} frames arrived`);
        await new Promise<void>((resolve) => {
          listeners.add(resolve);
          setTimeout(resolve, 50);
        });
      }
      return frames.filter(filter);
    },
    close: () => controller.abort(),
  };
}

/** Every frame of a whole SSE body. */
export function parseFrames(body: string): Frame[] {
  return body
    .split("\n\n")
    .filter((text) => text.trim() !== "")
    .map(parseFrame);
}

/** A stream opened on a raw socket that reads nothing until `readAll`. */
export interface StalledStream {
  /** Resumes reading and answers the status line and every frame until the server ends the stream. */
  readAll(): Promise<{ status: string; frames: Frame[] }>;
  destroy(): void;
}

/**
 * Opens the stream over HTTP/1.0 (the answer is the raw SSE text up to the connection's close) and
 * stops reading at once, as a client that never reads would.
 */
export async function openStalledStream(
  url: string,
  runId: string,
  key: string = BOOTSTRAP_SECRET,
): Promise<StalledStream> {
  const { hostname, port } = new URL(url);
  const socket = net.connect(Number(port), hostname);
  await new Promise<void>((resolve, reject) => {
    socket.once("connect", resolve);
    socket.once("error", reject);
  });
  socket.pause();
  socket.write(`GET /v1/runs/${runId}/events HTTP/1.0\r\nHost: ${hostname}\r\nAuthorization: Bearer ${key}\r\n\r\n`);
  const chunks: Buffer[] = [];
  socket.on("data", (chunk: Buffer) => chunks.push(chunk));
  const closed = new Promise<void>((resolve) => {
    socket.once("close", () => resolve());
    socket.on("error", () => undefined);
  });
  return {
    readAll: async () => {
      socket.resume();
      const deadline = setTimeout(() => socket.destroy(), 30_000);
      await closed;
      clearTimeout(deadline);
      const text = Buffer.concat(chunks).toString("utf8");
      const split = text.indexOf("\r\n\r\n");
      const status = text.slice(0, text.indexOf("\r\n"));
      return { status, frames: parseFrames(text.slice(split + 4)) };
    },
    destroy: () => socket.destroy(),
  };
}
