// Keeps the layers honest: the protocol package is pure (no I/O, no clock, no randomness) and no
// package imports another that sits above it. Scans every source file's imports.
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

const root = fileURLToPath(new URL("..", import.meta.url));

/** Which workspace packages each package may import. */
const ALLOWED_DEPENDENCIES: Record<string, readonly string[]> = {
  protocol: [],
  client: [],
  server: ["protocol"],
  runner: ["protocol"],
  cli: ["protocol", "server", "runner", "client"],
  console: ["protocol", "client"],
};

/** The only `node:` modules the pure protocol package may use, and where. */
const PROTOCOL_NODE_IMPORTS: Record<string, readonly string[]> = {
  "src/digest.ts": ["node:crypto"],
};

function sourceFiles(dir: string): string[] {
  const out: string[] = [];
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) out.push(...sourceFiles(path));
    else if (/\.(ts|tsx|mts)$/.test(name) && !name.endsWith(".d.ts")) out.push(path);
  }
  return out;
}

/** Module specifiers of static imports, re-exports and dynamic imports. */
function importsOf(text: string): string[] {
  const specifiers: string[] = [];
  const pattern =
    /(?:^|[\s;])(?:import|export)\s[^'"]*?from\s*["']([^"']+)["']|import\s*\(\s*["']([^"']+)["']\s*\)|^\s*import\s*["']([^"']+)["']/gm;
  for (const match of text.matchAll(pattern)) specifiers.push((match[1] ?? match[2] ?? match[3]) as string);
  return specifiers;
}

const packages = readdirSync(join(root, "packages")).filter((name) => {
  try {
    return statSync(join(root, "packages", name, "src")).isDirectory();
  } catch {
    return false;
  }
});

describe("package layering", () => {
  it("finds the packages it guards", () => {
    expect(packages).toContain("protocol");
    for (const name of packages) expect(Object.keys(ALLOWED_DEPENDENCIES)).toContain(name);
  });

  for (const name of packages) {
    it(`${name} imports only the packages below it`, () => {
      const allowed = ALLOWED_DEPENDENCIES[name] ?? [];
      const violations: string[] = [];
      const srcDir = join(root, "packages", name, "src");
      for (const file of sourceFiles(srcDir)) {
        for (const specifier of importsOf(readFileSync(file, "utf8"))) {
          const workspace = /^@toolhost\/([^/]+)/.exec(specifier)?.[1];
          if (workspace !== undefined && !allowed.includes(workspace)) {
            violations.push(`${relative(root, file)} imports ${specifier}`);
          }
          if (specifier.startsWith("../") && relative(srcDir, join(file, "..", specifier)).startsWith("..")) {
            violations.push(`${relative(root, file)} reaches outside its package: ${specifier}`);
          }
        }
      }
      expect(violations).toEqual([]);
    });
  }

  it("keeps the protocol package pure: no I/O modules, no clock, no randomness", () => {
    const srcDir = join(root, "packages", "protocol", "src");
    const violations: string[] = [];
    for (const file of sourceFiles(srcDir)) {
      const rel = relative(join(root, "packages", "protocol"), file);
      const text = readFileSync(file, "utf8");
      for (const specifier of importsOf(text)) {
        const isBuiltin =
          specifier.startsWith("node:") || /^(fs|path|os|http|https|net|child_process|crypto)$/.test(specifier);
        if (isBuiltin && !(PROTOCOL_NODE_IMPORTS[rel] ?? []).includes(specifier)) {
          violations.push(`${rel} imports ${specifier}`);
        }
      }
      const code = text.replace(/\/\*[\s\S]*?\*\/|\/\/.*$/gm, "");
      for (const forbidden of [
        "Date.now",
        "new Date",
        "Math.random",
        "performance.now",
        "process.",
        "setTimeout",
        "fetch(",
      ]) {
        if (code.includes(forbidden)) violations.push(`${rel} uses ${forbidden}`);
      }
    }
    expect(violations).toEqual([]);
  });

  it("recognises the import forms it scans for", () => {
    const sample = `import { a } from "@toolhost/server";\nexport * from "./x.js";\nimport "side-effect";\nconst m = await import("node:fs");\nimport type { T } from "@toolhost/runner";`;
    expect(importsOf(sample)).toEqual(["@toolhost/server", "./x.js", "side-effect", "node:fs", "@toolhost/runner"]);
  });
});
