/**
 * A minimal HTTP/1.1 keep-alive client on one TCP socket, for the protocol benchmark's simulated
 * executors. Why not node:http: the load generator shares the machine's two cores with the server,
 * and node:http's client costs several times more CPU per request than writing the request text and
 * reading `content-length` bytes back. One request at a time per connection (further ones queue), which
 * is how an executor talks to the server anyway; 127.0.0.1 only; answers are read as UTF-8 text.
 */

import net from "node:net";

const HEADER_END = Buffer.from("\r\n\r\n");

/** One keep-alive connection; reconnects on the next request after the server closed it. */
export class HttpConnection {
  #host;
  #port;
  #authorization;
  /** @type {net.Socket | undefined} */
  #socket;
  #buffer = Buffer.alloc(0);
  /** @type {{ resolve: (answer: { status: number, text: string }) => void, reject: (error: Error) => void } | undefined} */
  #waiting;
  #queue = Promise.resolve();

  /** @param {string} baseUrl  `http://127.0.0.1:PORT` @param {string} key  the bearer key sent with every request */
  constructor(baseUrl, key) {
    const url = new URL(baseUrl);
    if (url.hostname !== "127.0.0.1") throw new Error(`the benchmark only talks to 127.0.0.1, not ${url.hostname}`);
    this.#host = `${url.hostname}:${url.port}`;
    this.#port = Number(url.port);
    this.#authorization = `Bearer ${key}`;
  }

  /**
   * Sends one request (after the ones already queued on this connection) and resolves with its status
   * and body text. `body` is sent as `application/json`.
   * @param {string} method @param {string} path @param {string | undefined} [body]
   * @returns {Promise<{ status: number, text: string }>}
   */
  request(method, path, body) {
    const next = this.#queue.then(() => this.#send(method, path, body));
    this.#queue = next.then(
      () => undefined,
      () => undefined,
    );
    return next;
  }

  /** Closes the socket (a request in flight is rejected). */
  close() {
    this.#socket?.destroy();
    this.#socket = undefined;
  }

  #send(method, path, body) {
    const socket = this.#connected();
    let head = `${method} ${path} HTTP/1.1\r\nHost: ${this.#host}\r\nAuthorization: ${this.#authorization}\r\n`;
    if (body !== undefined) {
      head += `Content-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\n`;
    }
    return new Promise((resolve, reject) => {
      this.#waiting = { resolve, reject };
      socket.write(body === undefined ? `${head}\r\n` : `${head}\r\n${body}`);
    });
  }

  #connected() {
    if (this.#socket !== undefined && !this.#socket.destroyed) return this.#socket;
    const socket = net.connect({ host: "127.0.0.1", port: this.#port, noDelay: true });
    this.#buffer = Buffer.alloc(0);
    socket.on("data", (chunk) => {
      this.#buffer = this.#buffer.length === 0 ? chunk : Buffer.concat([this.#buffer, chunk]);
      this.#parse();
    });
    const fail = (error) => {
      if (this.#socket === socket) this.#socket = undefined;
      const waiting = this.#waiting;
      this.#waiting = undefined;
      waiting?.reject(error ?? new Error("the server closed the connection"));
    };
    socket.on("error", fail);
    socket.on("close", () => fail(undefined));
    this.#socket = socket;
    return socket;
  }

  /** Answers the waiting request once its whole response is in the buffer. */
  #parse() {
    const buffer = this.#buffer;
    const end = buffer.indexOf(HEADER_END);
    if (end === -1) return;
    const head = buffer.toString("latin1", 0, end);
    const status = Number(head.slice(9, 12));
    const lengthMatch = /\r\ncontent-length: *(\d+)/i.exec(head);
    let text;
    let consumed;
    if (lengthMatch !== null) {
      const length = Number(lengthMatch[1]);
      if (buffer.length < end + 4 + length) return;
      text = buffer.toString("utf8", end + 4, end + 4 + length);
      consumed = end + 4 + length;
    } else if (/\r\ntransfer-encoding: *chunked/i.test(head)) {
      const chunked = readChunked(buffer, end + 4);
      if (chunked === undefined) return;
      ({ text, consumed } = chunked);
    } else {
      throw new Error(`an answer without content-length or chunked encoding: ${head}`);
    }
    this.#buffer = buffer.subarray(consumed);
    const waiting = this.#waiting;
    this.#waiting = undefined;
    waiting?.resolve({ status, text });
  }
}

/** A chunked body starting at `from`, or undefined while it is incomplete. */
function readChunked(buffer, from) {
  const parts = [];
  let at = from;
  for (;;) {
    const lineEnd = buffer.indexOf("\r\n", at);
    if (lineEnd === -1) return undefined;
    const size = Number.parseInt(buffer.toString("latin1", at, lineEnd), 16);
    if (buffer.length < lineEnd + 2 + size + 2) return undefined;
    if (size === 0) return { text: Buffer.concat(parts).toString("utf8"), consumed: lineEnd + 4 };
    parts.push(buffer.subarray(lineEnd + 2, lineEnd + 2 + size));
    at = lineEnd + 2 + size + 2;
  }
}
