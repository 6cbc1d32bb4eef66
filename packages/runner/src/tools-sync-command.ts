/**
 * `toolhost-tools sync MODULE --binding ID (--toolset ID | --name NAME)`: the runner's own slim command
 * for publishing code-first tools, so a product that installs only `@toolhost/runner` publishes its
 * toolset without the server, its database drivers and model SDKs (`toolhost tools sync` of
 * `@toolhost/cli` does the same through `syncToolsModule`).
 */

import { parseArgs } from "node:util";
import { RunnerError } from "./errors.js";
import { syncToolsModule } from "./tools-sync.js";

/** Where the command writes and which environment it reads (tests pass their own). */
export interface ToolsCommandIo {
  readonly stdout: (text: string) => void;
  readonly stderr: (text: string) => void;
  readonly env: Readonly<Record<string, string | undefined>>;
}

const USAGE = `usage: toolhost-tools sync MODULE --binding ID (--toolset ID | --name NAME) [--url URL] [--key KEY] [--export NAME]

Publishes the tools MODULE exports (defineTool from @toolhost/runner) as a toolset version: a new toolset
with --name, or the next version of --toolset unless its latest version already holds them.
Prints {"toolset_id","version","published"}.
  --url URL      the server (default: $TOOLHOST_URL, else http://127.0.0.1:8080)
  --key KEY      an API key with configuration:write (default: $TOOLHOST_API_KEY)
  --export NAME  the module's export holding the tools (default: tools)
`;

/** Exit statuses, as the `toolhost` command uses them. */
const EXIT = { ok: 0, failure: 1, usage: 2 } as const;

/** Runs the command on `argv` (without the program name); resolves to the exit status. */
export async function runToolsCommand(argv: readonly string[], io: ToolsCommandIo): Promise<number> {
  let parsed: ReturnType<typeof parse>;
  try {
    parsed = parse(argv);
  } catch (error) {
    io.stderr(`toolhost-tools: ${(error as Error).message}\n${USAGE}`);
    return EXIT.usage;
  }
  const { values, positionals } = parsed;
  if (values.help === true) {
    io.stdout(USAGE);
    return EXIT.ok;
  }
  const [command, modulePath, ...rest] = positionals;
  if (command !== "sync" || modulePath === undefined || rest.length > 0) {
    io.stderr(`toolhost-tools: expected "sync MODULE"\n${USAGE}`);
    return EXIT.usage;
  }
  const apiKey = values.key ?? io.env.TOOLHOST_API_KEY;
  if (apiKey === undefined || apiKey === "") {
    io.stderr("toolhost-tools: an API key is required: --key KEY or TOOLHOST_API_KEY\n");
    return EXIT.usage;
  }
  if (values.binding === undefined) {
    io.stderr("toolhost-tools: --binding ID is required\n");
    return EXIT.usage;
  }
  if ((values.toolset === undefined) === (values.name === undefined)) {
    io.stderr("toolhost-tools: give exactly one of --toolset ID or --name NAME\n");
    return EXIT.usage;
  }
  const url = values.url ?? (io.env.TOOLHOST_URL || "http://127.0.0.1:8080");
  try {
    const published = await syncToolsModule({
      modulePath,
      exportName: values.export ?? "tools",
      url,
      apiKey,
      bindingId: values.binding,
      target: values.toolset === undefined ? { name: values.name as string } : { toolsetId: values.toolset },
    });
    io.stdout(
      `${JSON.stringify({ toolset_id: published.toolsetId, version: published.version, published: published.published })}\n`,
    );
    return EXIT.ok;
  } catch (error) {
    if (error instanceof RunnerError) io.stderr(`toolhost-tools: ${error.message}\n`);
    else if (error instanceof TypeError) io.stderr(`toolhost-tools: cannot reach ${url}: ${error.message}\n`);
    else throw error;
    return EXIT.failure;
  }
}

function parse(argv: readonly string[]) {
  return parseArgs({
    args: [...argv],
    allowPositionals: true,
    strict: true,
    options: {
      url: { type: "string" },
      key: { type: "string" },
      binding: { type: "string" },
      toolset: { type: "string" },
      name: { type: "string" },
      export: { type: "string" },
      help: { type: "boolean", short: "h" },
    },
  });
}
