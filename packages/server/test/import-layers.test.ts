// Keeps the server's layers honest (DEVELOPERS.md, "The server's layers"): every import in
// packages/server/src — type-only ones too — goes down the layer table below, never up or sideways to
// another folder of the same layer, and no file reaches itself again through its imports (no cycle,
// inside an area either). An area's foundation files import only each other. Inside storage/, the
// aggregates stay apart and the engine below them (STORAGE_PARTS).
import { readdirSync, readFileSync, statSync } from "node:fs";
import { dirname, join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

const srcDir = fileURLToPath(new URL("../src", import.meta.url));

/**
 * The server's layers, top first. An entry is a folder of src (`name/`) or a file at its root. A module
 * may import a module of any layer below its own; modules of one layer are independent of each other.
 */
const SERVER_LAYERS: readonly (readonly string[])[] = [
  // The package's public entry point.
  ["index.ts"],
  // The composition root: builds the app, the route table, the sweeps, serving.
  ["app/"],
  // Route and flow areas, the ones using others above the ones they use.
  ["dryrun/"],
  ["config/", "executors/"],
  ["calls/"],
  ["runs/"],
  ["auth/", "wakeups/"],
  ["observability/"],
  ["logger.ts"],
  ["options.ts"],
  // The options table the options are derived from (src/options.ts).
  ["options/"],
  ["models/"],
  // Framework helpers: Fastify (no domain imports) and the sweep ticker.
  ["http/", "runtime/"],
  ["storage/"],
  // Leaves.
  ["clock.ts", "ids.ts", "server-version.ts", "shutdown-signals.ts"],
];

/** Per area, the files the rest of the area builds on: they import no other file of their area. */
const AREA_FOUNDATIONS: Readonly<Record<string, readonly string[]>> = {
  // The storage contract: the interface, its records and the table types, and each aggregate's store
  // interfaces (the interface derives `Stores` from them), never their implementations.
  "storage/": [
    "storage/storage.ts",
    "storage/records.ts",
    "storage/database-schema.ts",
    "storage/config/contract.ts",
    "storage/executors/contract.ts",
    "storage/calls/contract.ts",
    "storage/runs/contract.ts",
  ],
  "wakeups/": ["wakeups/wakeup.ts", "wakeups/call-wakeups.ts"],
};

/**
 * The parts of storage/ (docs/storage.md, "How the code is laid out"): each aggregate's folder holds its
 * stores beside their contract; they run on the engine; the root composes the Storage of them.
 */
interface StorageParts {
  /** One folder per aggregate. */
  readonly aggregates: readonly string[];
  /** The driver and performance machinery the stores run on. */
  readonly engine: string;
  /** The root files that build the Storage from the engine and every aggregate's stores. */
  readonly composition: readonly string[];
}

const STORAGE_PARTS: StorageParts = {
  aggregates: ["storage/config/", "storage/executors/", "storage/calls/", "storage/runs/"],
  engine: "storage/engine/",
  composition: ["storage/index.ts", "storage/open-storage.ts", "storage/kysely-storage.ts", "storage/create-stores.ts"],
};

/**
 * What one aggregate may import of another: its contract, and its rows' columns and mapping
 * (`*-row.ts`), which a join of the other aggregate's table reads with; never its stores or queries.
 */
const SHARED_AGGREGATE_FILE = /\/(?:contract|[a-z-]+-row)\.ts$/;

/** One import edge between two source files (paths relative to src, `.ts`). */
interface ImportEdge {
  readonly from: string;
  readonly to: string;
}

/** Module specifiers of static imports, re-exports, dynamic and `import("…")` type imports. */
function importsOf(text: string): string[] {
  const specifiers: string[] = [];
  const pattern =
    /(?:^|[\s;])(?:import|export)\s[^'"]*?from\s*["']([^"']+)["']|import\s*\(\s*["']([^"']+)["']\s*\)|^\s*import\s*["']([^"']+)["']/gm;
  for (const match of text.matchAll(pattern)) specifiers.push((match[1] ?? match[2] ?? match[3]) as string);
  return specifiers;
}

/** The layer entry a source file belongs to: its top folder (`runs/`) or its own name at the root. */
function moduleOf(file: string): string {
  const slash = file.indexOf("/");
  return slash === -1 ? file : file.slice(0, slash + 1);
}

/** What breaks the layer table, one line each: upward and sideways imports, foundations reaching up. */
function layerViolations(
  edges: readonly ImportEdge[],
  layers: readonly (readonly string[])[],
  foundations: Readonly<Record<string, readonly string[]>>,
): string[] {
  const rank = new Map<string, number>();
  layers.forEach((entries, index) => {
    for (const entry of entries) rank.set(entry, index);
  });
  const violations: string[] = [];
  for (const { from, to } of edges) {
    const fromModule = moduleOf(from);
    const toModule = moduleOf(to);
    const fromRank = rank.get(fromModule);
    const toRank = rank.get(toModule);
    if (fromRank === undefined || toRank === undefined) {
      violations.push(`${fromRank === undefined ? from : to} is in no layer of the table`);
    } else if (fromModule === toModule) {
      const foundation = foundations[fromModule] ?? [];
      if (foundation.includes(from) && !foundation.includes(to)) {
        violations.push(`${from} is a foundation of ${fromModule} but imports ${to}`);
      }
    } else if (toRank < fromRank) {
      violations.push(`${from} imports ${to}, a layer above it`);
    } else if (toRank === fromRank) {
      violations.push(`${from} imports ${to}, a module beside it in the same layer`);
    }
  }
  return violations;
}

/**
 * What breaks the parts of storage/: the engine importing an aggregate or the composition, an
 * aggregate importing another's implementation or the composition.
 */
function storageViolations(edges: readonly ImportEdge[], parts: StorageParts): string[] {
  const aggregateOf = (file: string) => parts.aggregates.find((aggregate) => file.startsWith(aggregate));
  const violations: string[] = [];
  for (const { from, to } of edges) {
    const fromAggregate = aggregateOf(from);
    const toAggregate = aggregateOf(to);
    if (from.startsWith(parts.engine) && (toAggregate !== undefined || parts.composition.includes(to))) {
      violations.push(`${from} is in the storage engine but imports ${to}`);
    } else if (fromAggregate !== undefined && parts.composition.includes(to)) {
      violations.push(`${from} imports ${to}, the composition of the storage`);
    } else if (
      fromAggregate !== undefined &&
      toAggregate !== undefined &&
      fromAggregate !== toAggregate &&
      !SHARED_AGGREGATE_FILE.test(to)
    ) {
      violations.push(`${from} imports ${to}, a file of another aggregate beyond its contract and rows`);
    }
  }
  return violations;
}

/** Every import cycle between files, each as the path around it (`a.ts → b.ts → a.ts`). */
function importCycles(edges: readonly ImportEdge[]): string[] {
  const next = new Map<string, string[]>();
  for (const { from, to } of edges) next.set(from, [...(next.get(from) ?? []), to]);
  // Tarjan's strongly connected components; each component of more than one file (or a file
  // importing itself) holds a cycle, reported as its shortest way back to its first file.
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const components: string[][] = [];
  let counter = 0;
  const visit = (node: string): void => {
    index.set(node, counter);
    low.set(node, counter);
    counter++;
    stack.push(node);
    onStack.add(node);
    for (const target of next.get(node) ?? []) {
      if (!index.has(target)) {
        visit(target);
        low.set(node, Math.min(low.get(node) as number, low.get(target) as number));
      } else if (onStack.has(target)) {
        low.set(node, Math.min(low.get(node) as number, index.get(target) as number));
      }
    }
    if (low.get(node) === index.get(node)) {
      const component: string[] = [];
      let member: string | undefined;
      do {
        member = stack.pop() as string;
        onStack.delete(member);
        component.push(member);
      } while (member !== node);
      if (component.length > 1 || (next.get(node) ?? []).includes(node)) components.push(component);
    }
  };
  for (const node of [...next.keys()].sort()) if (!index.has(node)) visit(node);
  return components.map((component) => {
    const members = new Set(component);
    const start = [...component].sort()[0] as string;
    // Breadth-first from `start` inside the component, back to `start`.
    const cameFrom = new Map<string, string>();
    const queue = [start];
    let last: string | undefined;
    while (queue.length > 0 && last === undefined) {
      const node = queue.shift() as string;
      for (const target of next.get(node) ?? []) {
        if (target === start) {
          last = node;
          break;
        }
        if (members.has(target) && !cameFrom.has(target)) {
          cameFrom.set(target, node);
          queue.push(target);
        }
      }
    }
    const path = [start];
    for (let node = last as string; node !== start; node = cameFrom.get(node) as string) path.splice(1, 0, node);
    return [...path, start].join(" → ");
  });
}

function sourceFiles(dir: string): string[] {
  const out: string[] = [];
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) out.push(...sourceFiles(path));
    else if (name.endsWith(".ts") && !name.endsWith(".d.ts")) out.push(path);
  }
  return out;
}

/** The server's own imports between its source files. */
function serverImportEdges(): ImportEdge[] {
  const edges: ImportEdge[] = [];
  for (const path of sourceFiles(srcDir)) {
    const from = relative(srcDir, path);
    for (const specifier of importsOf(readFileSync(path, "utf8"))) {
      if (!specifier.startsWith(".")) continue;
      const to = relative(srcDir, join(dirname(path), specifier)).replace(/\.js$/, ".ts");
      edges.push({ from, to });
    }
  }
  return edges;
}

describe("server layering", () => {
  const edges = serverImportEdges();

  it("scans the server's imports, and every module of src has a place in the table", () => {
    expect(edges.length).toBeGreaterThan(500);
    const placed = new Set(SERVER_LAYERS.flat());
    const modules = new Set(sourceFiles(srcDir).map((path) => moduleOf(relative(srcDir, path))));
    expect([...modules].filter((module) => !placed.has(module))).toEqual([]);
    // A table entry that names nothing would let a stale layer hide a rename.
    expect([...placed].filter((entry) => !modules.has(entry))).toEqual([]);
    for (const foundation of Object.values(AREA_FOUNDATIONS).flat()) {
      expect(edges.some((edge) => edge.from === foundation || edge.to === foundation)).toBe(true);
    }
  });

  it("imports only down the layer table", () => {
    expect(layerViolations(edges, SERVER_LAYERS, AREA_FOUNDATIONS)).toEqual([]);
  });

  it("keeps storage's aggregates apart and its engine below them", () => {
    const files = sourceFiles(srcDir).map((path) => relative(srcDir, path));
    // A part that names nothing would let a renamed folder escape the rule.
    for (const part of [...STORAGE_PARTS.aggregates, STORAGE_PARTS.engine, ...STORAGE_PARTS.composition]) {
      expect(files.some((file) => file.startsWith(part))).toBe(true);
    }
    expect(storageViolations(edges, STORAGE_PARTS)).toEqual([]);
  });

  it("has no import cycle between files", () => {
    expect(importCycles(edges)).toEqual([]);
  });

  it("every import names a file that exists", () => {
    const files = new Set(sourceFiles(srcDir).map((path) => relative(srcDir, path)));
    expect(edges.filter((edge) => !files.has(edge.to)).map((edge) => `${edge.from} imports ${edge.to}`)).toEqual([]);
  });
});

describe("the layer checks themselves", () => {
  const layers = [["app/"], ["runs/", "calls/"], ["storage/"], ["clock.ts"]];
  const foundations = { "storage/": ["storage/storage.ts"] };

  it("report an import up the table, one beside it, a foundation reaching up and an unplaced module", () => {
    const edges: ImportEdge[] = [
      { from: "app/build-app.ts", to: "runs/run-routes.ts" },
      { from: "storage/storage.ts", to: "app/build-app.ts" },
      { from: "runs/run-routes.ts", to: "calls/claim-call.ts" },
      { from: "storage/storage.ts", to: "storage/runs/run-store.ts" },
      { from: "storage/runs/run-store.ts", to: "storage/storage.ts" },
      { from: "runs/run-routes.ts", to: "clock.ts" },
      { from: "runs/run-routes.ts", to: "ids.ts" },
    ];
    expect(layerViolations(edges, layers, foundations)).toEqual([
      "storage/storage.ts imports app/build-app.ts, a layer above it",
      "runs/run-routes.ts imports calls/claim-call.ts, a module beside it in the same layer",
      "storage/storage.ts is a foundation of storage/ but imports storage/runs/run-store.ts",
      "ids.ts is in no layer of the table",
    ]);
  });

  it("report storage's engine reaching an aggregate, and an aggregate reaching another's implementation", () => {
    const parts: StorageParts = {
      aggregates: ["storage/calls/", "storage/runs/"],
      engine: "storage/engine/",
      composition: ["storage/create-stores.ts"],
    };
    const edges: ImportEdge[] = [
      { from: "storage/engine/store-context.ts", to: "storage/runs/history-store.ts" },
      { from: "storage/engine/store-context.ts", to: "storage/create-stores.ts" },
      { from: "storage/engine/store-context.ts", to: "storage/storage.ts" },
      { from: "storage/calls/call-context-query.ts", to: "storage/runs/run-store.ts" },
      { from: "storage/calls/call-context-query.ts", to: "storage/runs/run-row.ts" },
      { from: "storage/calls/call-context-query.ts", to: "storage/runs/contract.ts" },
      { from: "storage/calls/call-context-query.ts", to: "storage/calls/call-row.ts" },
      { from: "storage/calls/call-context-query.ts", to: "storage/engine/reusable-query.ts" },
      { from: "storage/calls/index.ts", to: "storage/create-stores.ts" },
      { from: "storage/create-stores.ts", to: "storage/calls/index.ts" },
    ];
    expect(storageViolations(edges, parts)).toEqual([
      "storage/engine/store-context.ts is in the storage engine but imports storage/runs/history-store.ts",
      "storage/engine/store-context.ts is in the storage engine but imports storage/create-stores.ts",
      "storage/calls/call-context-query.ts imports storage/runs/run-store.ts, a file of another aggregate beyond its contract and rows",
      "storage/calls/index.ts imports storage/create-stores.ts, the composition of the storage",
    ]);
  });

  it("report each cycle as the path around it", () => {
    const edges: ImportEdge[] = [
      { from: "a.ts", to: "b.ts" },
      { from: "b.ts", to: "c.ts" },
      { from: "c.ts", to: "a.ts" },
      { from: "c.ts", to: "d.ts" },
      { from: "d.ts", to: "d.ts" },
      { from: "e.ts", to: "a.ts" },
    ];
    expect(importCycles(edges)).toEqual(["d.ts → d.ts", "a.ts → b.ts → c.ts → a.ts"]);
    expect(importCycles(edges.filter((edge) => edge.from !== "c.ts" && edge.from !== "d.ts"))).toEqual([]);
  });

  it("see every import form: multi-line, type-only, re-exports, side effects, import() types", () => {
    const sample = [
      'import {\n  a,\n  type B,\n} from "./a.js";',
      'import type { C } from "../c.js";',
      'export { d } from "./d.js";',
      'export type * from "./e.js";',
      'import "./f.js";',
      'type G = typeof import("./g.js");',
    ].join("\n");
    expect(importsOf(sample)).toEqual(["./a.js", "../c.js", "./d.js", "./e.js", "./f.js", "./g.js"]);
  });
});
