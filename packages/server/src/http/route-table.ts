/** Which methods each registered path answers, so a known path with a wrong method is 405, not 404. */

/** Registered routes by path pattern; answers the methods a concrete path allows. */
export class RouteTable {
  private readonly routes: Array<{ pattern: RegExp; methods: Set<string> }> = [];

  /** Records that `url` (a Fastify path such as `/v1/keys/:key_id`) answers `methods`. */
  add(url: string, methods: string | readonly string[]): void {
    const source = url
      .split("/")
      .map((segment) => (segment.startsWith(":") ? "[^/]+" : segment === "*" ? ".*" : escapeRegExp(segment)))
      .join("/");
    const pattern = new RegExp(`^${source}$`);
    let entry = this.routes.find((route) => route.pattern.source === pattern.source);
    if (entry === undefined) {
      entry = { pattern, methods: new Set() };
      this.routes.push(entry);
    }
    for (const method of typeof methods === "string" ? [methods] : methods) entry.methods.add(method.toUpperCase());
  }

  /** The methods that `path` (without query) answers, sorted; empty when no route matches it. */
  allowedMethods(path: string): string[] {
    const methods = new Set<string>();
    for (const route of this.routes)
      if (route.pattern.test(path)) for (const method of route.methods) methods.add(method);
    return [...methods].sort();
  }
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}
