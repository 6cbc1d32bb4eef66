/**
 * A small reader of the Prometheus text exposition format (version 0.0.4), enough for tests to check
 * what `/metrics` and a runner's registry expose: families with their `# TYPE`, and samples with
 * their labels. Escapes in label values (`\\`, `\"`, `\n`) are decoded.
 */

/** One sample line: `name{labels} value`. */
export interface PromSample {
  readonly name: string;
  readonly labels: Readonly<Record<string, string>>;
  readonly value: number;
}

/** What a scrape holds: each family's type, and every sample. */
export interface PromScrape {
  readonly types: ReadonlyMap<string, string>;
  readonly samples: readonly PromSample[];
}

const SAMPLE = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{(.*)\})? (\S+)(?: \d+)?$/;
const LABEL = /([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\]|\\.)*)"/g;

/** Parses `text`; throws on a line that is neither a comment nor a sample. */
export function parsePrometheusText(text: string): PromScrape {
  const types = new Map<string, string>();
  const samples: PromSample[] = [];
  for (const line of text.split("\n")) {
    if (line.trim() === "") continue;
    if (line.startsWith("#")) {
      const type = /^# TYPE (\S+) (\S+)$/.exec(line);
      if (type !== null) types.set(type[1] as string, type[2] as string);
      continue;
    }
    const match = SAMPLE.exec(line);
    if (match === null) throw new Error(`not a Prometheus sample line: ${line}`);
    const labels: Record<string, string> = {};
    for (const [, key, raw] of (match[2] ?? "").matchAll(LABEL)) {
      labels[key as string] = (raw as string).replace(/\\(.)/g, (_, c: string) => (c === "n" ? "\n" : c));
    }
    const value = match[3] === "+Inf" ? Number.POSITIVE_INFINITY : Number(match[3]);
    samples.push({ name: match[1] as string, labels, value });
  }
  return { types, samples };
}

/** The sum of the samples named `name` whose labels include `labels`. */
export function sumOf(scrape: PromScrape, name: string, labels: Record<string, string> = {}): number {
  return scrape.samples
    .filter((s) => s.name === name && Object.entries(labels).every(([key, value]) => s.labels[key] === value))
    .reduce((total, s) => total + s.value, 0);
}

/** The family names of one type whose name starts with `prefix`. */
export function familiesOf(scrape: PromScrape, prefix: string): string[] {
  return [...scrape.types.keys()].filter((name) => name.startsWith(prefix));
}
