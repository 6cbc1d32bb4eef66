/**
 * Browser test support: Debian's Chromium driven by playwright-core (no browser download), a real
 * server serving the built console over a fresh SQLite database with the demo seeded by the same code
 * `npm start` runs (the example executor as a child process, a completed first run).
 *
 * Without /usr/bin/chromium the suite skips and says so, except under CI=true, where it fails:
 * `.ci/run` installs Chromium with apt first.
 */

import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Writable } from "node:stream";
import { fileURLToPath } from "node:url";
import { type RunningServer, startServer } from "@toolhost/server";
import { type BrowserContext, chromium, type Locator, type Page } from "playwright-core";
import { describe, it } from "vitest";
import { type DemoStart, startDemo } from "../../cli/src/demo/demo-setup.js";
import { StepProgress } from "../../cli/src/demo/step-progress.js";

/** Debian's Chromium (`apt-get install chromium`); TOOLHOST_CHROMIUM names another binary. */
export const CHROMIUM_PATH = process.env.TOOLHOST_CHROMIUM ?? "/usr/bin/chromium";

/** The flags the console's browser tests run Chromium with (a fresh profile comes on top). */
export const CHROMIUM_FLAGS = [
  "--headless",
  "--no-sandbox",
  "--disable-gpu",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
  "--no-first-run",
];

/** The console's build (the vitest global setup rebuilds it when its sources changed). */
export const CONSOLE_DIST = fileURLToPath(new URL("../dist", import.meta.url));

/** Where screenshots go: TOOLHOST_SCREENSHOT_DIR (`npm run screenshots` sets docs/img), else nowhere. */
export const SCREENSHOT_DIR = process.env.TOOLHOST_SCREENSHOT_DIR;

/** `describe` when Chromium is there; otherwise a skip that says why, or (under CI=true) a failure. */
export function describeInChromium(name: string, fn: () => void): void {
  if (existsSync(CHROMIUM_PATH)) {
    describe(name, fn);
  } else if (process.env.CI === "true") {
    describe(name, () => {
      it(`needs Chromium at ${CHROMIUM_PATH} under CI=true (apt-get install chromium)`, () => {
        throw new Error(`${CHROMIUM_PATH} is missing: .ci/run installs it with apt-get install chromium`);
      });
    });
  } else {
    console.warn(`${CHROMIUM_PATH} is missing: skipping the console's browser tests (apt-get install chromium)`);
    describe.skip(`${name} (skipped: ${CHROMIUM_PATH} is missing; apt-get install chromium)`, fn);
  }
}

/** A server with the console and the demo, and a browser page on it. */
export interface ConsoleWorld {
  readonly server: RunningServer;
  readonly demo: DemoStart;
  /** The demo's admin key (what `npm start` prints). */
  readonly adminKey: string;
  readonly context: BrowserContext;
  readonly page: Page;
  /** Saves a screenshot of the page (or of `element`) as `name` when SCREENSHOT_DIR is set. */
  screenshot(name: string, element?: Locator): Promise<void>;
  close(): Promise<void>;
}

const discard = new Writable({ write: (_chunk, _encoding, done) => done() });

/** Starts the server, the demo and Chromium (1280×800). */
export async function startConsoleWorld(): Promise<ConsoleWorld> {
  const directory = mkdtempSync(join(tmpdir(), "toolhost-console-test-"));
  const server = await startServer(
    {
      databaseUrl: `sqlite:${join(directory, "console.db")}`,
      host: "127.0.0.1",
      port: 0,
      bootstrapKey: null,
      consoleDirectory: CONSOLE_DIST,
      logLevel: "warn",
      logDestination: discard,
    },
    {},
  );
  let demo: DemoStart | undefined;
  let context: BrowserContext | undefined;
  try {
    demo = await startDemo(server, {
      progress: new StepProgress(discard),
      stateDirectory: directory,
      bootstrapKey: null,
      alwaysRun: false,
      forward: () => undefined,
    });
    const adminKey = demo.adminKey;
    if (adminKey === undefined) throw new Error("the demo made no admin key");
    const profile = join(directory, "chromium-profile");
    mkdirSync(profile);
    context = await chromium.launchPersistentContext(profile, {
      executablePath: CHROMIUM_PATH,
      headless: true,
      args: CHROMIUM_FLAGS,
      viewport: { width: 1280, height: 800 },
      // The console follows the browser's language until one is chosen; these tests start in Chinese.
      locale: "zh-CN",
      baseURL: server.url,
    });
    context.setDefaultTimeout(15_000);
    const page = context.pages()[0] ?? (await context.newPage());
    const started = { server, demo, context };
    return {
      ...started,
      adminKey,
      page,
      screenshot: async (name, element) => {
        if (SCREENSHOT_DIR === undefined) return;
        mkdirSync(SCREENSHOT_DIR, { recursive: true });
        if (element !== undefined) return void (await element.screenshot({ path: join(SCREENSHOT_DIR, name) }));
        // From the top of the page, as a person arriving on it sees it; nothing keeps focus rings.
        await page.evaluate("document.activeElement?.blur(); window.scrollTo(0, 0)");
        await page.screenshot({ path: join(SCREENSHOT_DIR, name) });
      },
      close: async () => {
        await started.context.close();
        await started.demo.stop();
        await server.close();
        rmSync(directory, { recursive: true, force: true });
      },
    };
  } catch (error) {
    await context?.close().catch(() => undefined);
    await demo?.stop().catch(() => undefined);
    await server.close().catch(() => undefined);
    rmSync(directory, { recursive: true, force: true });
    throw error;
  }
}

const AXE_SOURCE = readFileSync(createRequire(import.meta.url).resolve("axe-core/axe.min.js"), "utf8");

/** One axe-core finding, as the tests report it. */
export interface AxeFinding {
  readonly id: string;
  readonly impact: string;
  readonly help: string;
  readonly targets: string[];
}

/**
 * The serious and critical accessibility violations axe-core finds on the page as it is now. The
 * script is evaluated through the DevTools protocol, so the console's content security policy stays
 * enforced for everything else.
 */
export async function seriousAxeViolations(page: Page): Promise<AxeFinding[]> {
  await page.evaluate(AXE_SOURCE);
  // A string, not a function: the tests compile without the DOM's types.
  return page.evaluate(`(async () => {
    const results = await window.axe.run(document, { resultTypes: ["violations"] });
    return results.violations
      .filter((violation) => violation.impact === "serious" || violation.impact === "critical")
      .map((violation) => ({
        id: violation.id,
        impact: violation.impact,
        help: violation.help,
        targets: violation.nodes.map((node) => String(node.target)),
      }));
  })()`) as Promise<AxeFinding[]>;
}

/** A `tasks.read` result of about `bytes` bytes: many tasks, then `next_cursor` last (so a cut loses it from the head). */
export function largeTasksResult(bytes: number): string {
  const tasks: string[] = [];
  let size = 0;
  for (let i = 1; size < bytes - 40; i++) {
    const task = JSON.stringify({ task_id: `task-${i}`, title: `Task number ${i} of the big list`, status: "open" });
    tasks.push(task);
    size += task.length + 1;
  }
  return `{"tasks":[${tasks.join(",")}],"next_cursor":"page-2"}`;
}
