/**
 * Checks an error answer against the served OpenAPI document: the status must be one the operation
 * lists, and the error code one that status lists. The HTTP harness runs it on every answer, so the
 * per-operation error lists are checked by every black-box test. Requests no operation matches
 * (unknown paths, other methods) are not checked.
 */

// biome-ignore lint/suspicious/noExplicitAny: the document is walked freely.
type Doc = any;

const documents = new Map<string, Promise<Doc>>();

/** The served document of `baseUrl`, fetched once. */
function documentOf(baseUrl: string): Promise<Doc> {
  let document = documents.get(baseUrl);
  if (document === undefined) {
    // A server that is gone (shutdown tests) cannot be asked: its answers go unchecked.
    document = fetch(new URL("/v1/openapi.json", baseUrl))
      .then((response) => response.json())
      .catch(() => undefined);
    documents.set(baseUrl, document);
  }
  return document;
}

/** The operation `method path` is, by the document's path templates (the most specific match). */
function operationOf(doc: Doc, method: string, path: string): Doc | undefined {
  const matches = Object.entries<Doc>(doc.paths)
    .filter(([template, item]) => {
      if (item[method.toLowerCase()] === undefined) return false;
      const pattern = template.replace(/[.*+?^$()|[\]\\]/g, "\\$&").replace(/\{[^}]+\}/g, "[^/]+");
      return new RegExp(`^${pattern}$`).test(path);
    })
    .sort(([a], [b]) => (a.match(/\{/g)?.length ?? 0) - (b.match(/\{/g)?.length ?? 0));
  return matches[0]?.[1][method.toLowerCase()];
}

/** Throws when the error answer `status` / `code` of `method url` is not one the document lists. */
export async function checkErrorAnswer(
  baseUrl: string,
  method: string,
  url: URL,
  status: number,
  body: unknown,
): Promise<void> {
  if (status < 400 || url.pathname === "/v1/openapi.json") return;
  const code = (body as { error?: { code?: unknown } } | undefined)?.error?.code;
  if (typeof code !== "string") return;
  let path: string;
  try {
    path = decodeURIComponent(url.pathname);
  } catch {
    return;
  }
  const doc = await documentOf(baseUrl);
  if (doc === undefined) return;
  const operation = operationOf(doc, method, path);
  if (operation === undefined) return;
  const response = operation.responses[String(status)];
  const listed: string[] =
    response?.content?.["application/json"]?.schema?.properties?.error?.allOf?.[1]?.properties?.code?.enum ?? [];
  if (!listed.includes(code)) {
    throw new Error(
      `${method} ${url.pathname} answered ${status} ${code}, which the OpenAPI document does not list for ${operation.operationId} (add it to the route's config.errorCodes)`,
    );
  }
}
