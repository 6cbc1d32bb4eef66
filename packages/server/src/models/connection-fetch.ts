/**
 * The one door model requests leave through: the `fetch` handed to the providers' SDKs. It sends a
 * request only below the connection's `base_url`, never follows a redirect (a 3xx comes back to the
 * SDK as an answer, which fails the request), and sends only the headers the SDKs need plus the
 * connection's own key — whatever the SDKs would add from the server's environment
 * (`OPENAI_ADMIN_KEY`, `OPENAI_CUSTOM_HEADERS`, `ANTHROPIC_CUSTOM_HEADERS`, …) is dropped here.
 */

/** What one connection's requests may carry. */
export interface ConnectionTarget {
  readonly id: string;
  readonly baseUrl: string;
  /** The connection's key; null sends none. */
  readonly apiKey: string | null;
}

/** Headers the SDKs send that are not credentials (lowercase); `x-stainless-*` are the SDKs' own too. */
const SDK_HEADERS: ReadonlySet<string> = new Set([
  "accept",
  "content-type",
  "content-length",
  "user-agent",
  "anthropic-version",
  "idempotency-key",
]);

/** The prefix every request URL of `baseUrl` starts with (normalised as `URL` writes it, ending in `/`). */
export function requestPrefixOf(baseUrl: string): string {
  const href = new URL(baseUrl).href;
  return href.endsWith("/") ? href : `${href}/`;
}

/** True when `name: value` carries exactly the connection's key, as the SDKs send it (never another credential). */
function isConnectionKey(name: string, value: string, apiKey: string | null): boolean {
  if (apiKey === null) return false;
  if (name === "authorization") return value === `Bearer ${apiKey}`;
  return (name === "x-api-key" || name === "api-key") && value === apiKey;
}

/**
 * The headers to send for `target` (pure): the SDK's own non-credential headers, and its credential
 * header only when it holds exactly the connection's key (a connection without a key sends none).
 */
export function headersToSend(sdkHeaders: Headers, target: ConnectionTarget): Headers {
  const sent = new Headers();
  for (const [name, value] of sdkHeaders) {
    if (SDK_HEADERS.has(name) || name.startsWith("x-stainless-") || isConnectionKey(name, value, target.apiKey)) {
      sent.set(name, value);
    }
  }
  return sent;
}

/** A request the connection refuses to send (a URL outside its base_url). */
export class RequestOutsideConnection extends Error {
  constructor(connectionId: string) {
    super(`a request outside the base_url of model connection ${JSON.stringify(connectionId)} was not sent`);
    this.name = "RequestOutsideConnection";
  }
}

/** The `fetch` for `target`'s SDK client. */
export function connectionFetch(target: ConnectionTarget): typeof fetch {
  const prefix = requestPrefixOf(target.baseUrl);
  return async (input, init) => {
    // The SDKs pass a URL and an init; a Request would carry headers and a body this could not vet.
    if (input instanceof Request) throw new RequestOutsideConnection(target.id);
    const url = new URL(String(input)).href;
    if (!url.startsWith(prefix)) throw new RequestOutsideConnection(target.id);
    return fetch(url, { ...init, headers: headersToSend(new Headers(init?.headers), target), redirect: "manual" });
  };
}
