/**
 * The demo that `npm start` (`toolhost serve --demo`) and `toolhost demo` set up on a running
 * server: on an empty database a binding, a toolset with `tasks.read` and `tasks.create`, an agent
 * version on the scripted model and a session (through the HTTP API, with the example's own setup
 * code), an admin key shown once, the example executor as a child process, and a first run. A later
 * start finds the demo again and only starts its executor.
 */

import type { RunningServer, Storage } from "@toolhost/server";
import { loadServer } from "../server-module.js";
import { type DemoFacts, type DemoPlan, planDemo } from "./demo-plan.js";
import { type DemoRun, type ExampleExecutor, loadTaskServiceSetup, startExampleExecutor } from "./example-executor.js";
import type { StepProgress } from "./step-progress.js";

/** The demo's fixed names. */
export const DEMO = {
  agentName: "Task assistant (demo)",
  bindingId: "task-service",
  executorId: "task-service-demo",
  toolNames: ["tasks.read", "tasks.create"],
  subject: "demo-user",
  adminKeyName: "demo admin",
  executorKeyName: "demo executor",
  input: "Add 'Buy milk' to my tasks",
} as const;

/** How long the executor may take to come online, and a run to complete. */
const EXECUTOR_ONLINE_TIMEOUT_MS = 30_000;
const RUN_TIMEOUT_MS = 60_000;
const LIST_PAGE = { limit: 200 } as const;

/** What the demo's start did. */
export interface DemoStart {
  readonly plan: DemoPlan;
  /** A new admin key (its secret, shown only this once); absent when none was made. */
  readonly adminKey?: string;
  readonly agentId?: string;
  readonly agentVersion?: string;
  readonly sessionId?: string;
  readonly firstRun?: DemoRun;
  /** Tool calls the first run made, in order (tool names). */
  readonly firstRunTools?: readonly string[];
  readonly executor?: ExampleExecutor;
  /** Stops the executor (before the server closes). */
  stop(): Promise<void>;
}

/** What `startDemo` needs besides the server. */
export interface DemoOptions {
  readonly progress: StepProgress;
  /** Where the executor keeps its journal and its product database. */
  readonly stateDirectory: string;
  /** The server's bootstrap secret, when it has one: used instead of making a demo admin key. */
  readonly bootstrapKey: string | null;
  /** Start a run even when the demo was reused (`toolhost demo`), not only after seeding. */
  readonly alwaysRun: boolean;
  /** Where the executor's log lines go once it is online. */
  readonly forward: (text: string) => void;
}

/** Every item of a paged store list. */
async function listAll<T>(
  list: (page: { limit: number; cursor?: string | null }) => Promise<{ items: T[]; next_cursor: string | null }>,
): Promise<T[]> {
  const items: T[] = [];
  let cursor: string | null = null;
  do {
    const page: { items: T[]; next_cursor: string | null } = await list({ ...LIST_PAGE, cursor });
    items.push(...page.items);
    cursor = page.next_cursor;
  } while (cursor !== null);
  return items;
}

/** Reads what the plan depends on. */
export async function loadDemoFacts(storage: Storage, bootstrapKeyName: string): Promise<DemoFacts> {
  const agents = await listAll((page) => storage.agents.list(page, "*"));
  const bindings = await storage.bindings.list({ limit: 1 }, "*");
  const { OPERATOR_REACH } = await loadServer();
  const keys = await listAll((page) => storage.keys.list(page, OPERATOR_REACH));
  const demo = agents.find((agent) => agent.name === DEMO.agentName);
  return {
    demoAgentId: demo?.agent_id,
    hasConfiguration: agents.length > 0 || bindings.items.length > 0,
    hasKeys: keys.some((key) => key.name !== bootstrapKeyName),
  };
}

/** The demo's version and session, found again in storage. */
async function findDemo(storage: Storage, agentId: string): Promise<{ agentVersion: string; sessionId: string }> {
  const versions = await listAll((page) => storage.agents.listVersions(agentId, page));
  const sessions = await listAll((page) => storage.sessions.list(page, [agentId]));
  const version = versions.at(-1);
  const session = sessions.find((item) => item.agent_version === version?.agent_version) ?? sessions.at(-1);
  if (version === undefined || session === undefined) {
    throw new Error(`the demo agent ${agentId} has no version or no session; start with a new database`);
  }
  return { agentVersion: version.agent_version, sessionId: session.session_id };
}

/** A fresh executor key limited to the demo's binding; earlier demo executor keys are revoked. */
async function freshExecutorKey(storage: Storage): Promise<string> {
  const { createKey, OPERATOR_REACH, systemClock } = await loadServer();
  const created = await createKey(
    storage.keys,
    { name: DEMO.executorKeyName, scopes: ["executors:connect", "tools:execute"], bindings: [DEMO.bindingId] },
    OPERATOR_REACH,
    systemClock,
  );
  for (const key of await listAll((page) => storage.keys.list(page, OPERATOR_REACH))) {
    if (key.name === DEMO.executorKeyName && key.revoked_at_ms === null && key.key_id !== created.key_id) {
      await storage.keys.revoke(key.key_id, systemClock.nowMs(), OPERATOR_REACH);
    }
  }
  return created.key;
}

/** Resolves once the executor's current connection is online (it connected after `sinceMs`). */
async function waitOnline(storage: Storage, executor: ExampleExecutor, sinceMs: number): Promise<void> {
  let exited = false;
  void executor.exited.then(() => {
    exited = true;
  });
  const deadline = Date.now() + EXECUTOR_ONLINE_TIMEOUT_MS;
  for (;;) {
    const record = await storage.executors.get(DEMO.executorId);
    if (record?.online === true && record.connected_at_ms >= sinceMs && record.lease_expires_ms > Date.now()) return;
    if (exited) throw new Error(`the example executor exited before coming online:\n${executor.output()}`);
    if (Date.now() > deadline) throw new Error(`the example executor did not come online:\n${executor.output()}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** Seeds or finds the demo, starts its executor and (after seeding, or always) a run; see DemoStart. */
export async function startDemo(server: RunningServer, options: DemoOptions): Promise<DemoStart> {
  const { progress } = options;
  const { BOOTSTRAP_KEY_NAME, createKey, OPERATOR_REACH, systemClock } = await loadServer();
  const plan = planDemo(await loadDemoFacts(server.storage, BOOTSTRAP_KEY_NAME));
  if (plan.action === "leave") return { plan, stop: async () => undefined };
  const setup = await loadTaskServiceSetup();

  let adminKey: string | undefined;
  const adminSecret = async (): Promise<string> => {
    if (options.bootstrapKey !== null) return options.bootstrapKey;
    adminKey ??= (
      await createKey(server.storage.keys, { name: DEMO.adminKeyName, scopes: ["admin"] }, OPERATOR_REACH, systemClock)
    ).key;
    return adminKey;
  };

  let ids: { agentId: string; agentVersion: string; sessionId: string };
  if (plan.action === "seed") {
    const secret = await adminSecret();
    ids = await progress.step(
      "configuring the demo",
      () =>
        setup.configureTaskService(server.url, secret, {
          bindingId: DEMO.bindingId,
          subject: DEMO.subject,
          toolNames: DEMO.toolNames,
          agentName: DEMO.agentName,
        }),
      (made) =>
        `demo configured: binding ${made.bindingId}, toolset (${DEMO.toolNames.join(", ")}), ` +
        `agent version ${made.agentVersion} (scripted model), session ${made.sessionId}`,
    );
  } else {
    const found = await findDemo(server.storage, plan.agentId);
    ids = { agentId: plan.agentId, ...found };
    progress.line(`  ✓ demo found: agent version ${found.agentVersion}, session ${found.sessionId}`);
  }

  const executorKey = await freshExecutorKey(server.storage);
  const startedMs = Date.now();
  // Its start-up chatter stays out of the terminal; warnings once it is online reach it.
  let online = false;
  const executor = startExampleExecutor(
    {
      baseUrl: server.url,
      apiKey: executorKey,
      executorId: DEMO.executorId,
      bindingId: DEMO.bindingId,
      stateDirectory: options.stateDirectory,
      logLevel: "warn",
    },
    (text) => {
      if (online) options.forward(text);
    },
  );
  const stop = () => executor.stop();
  try {
    await progress.step(
      "starting the example executor (examples/task-service)",
      async () => {
        await waitOnline(server.storage, executor, startedMs - 1000);
        online = true;
      },
      () => `example executor ${DEMO.executorId} online (examples/task-service, pid ${executor.pid})`,
    );
    if (plan.action === "reuse" && !options.alwaysRun) {
      return { plan, ...ids, executor, stop, ...(adminKey === undefined ? {} : { adminKey }) };
    }
    const secret = await adminSecret();
    const { run, history } = await progress.step(
      "running the scripted agent",
      () => setup.runAndWait(server.url, secret, ids.sessionId, RUN_TIMEOUT_MS, DEMO.input),
      ({ run }) => `run ${run.run_id} ${run.status}${run.output === undefined ? "" : `: "${run.output}"`}`,
    );
    if (run.status !== "completed") throw new Error(`the demo run ended ${run.status}: ${JSON.stringify(run.error)}`);
    const firstRunTools = history.data.flatMap((item) =>
      item.type === "tool_calls"
        ? (item as unknown as { calls: Array<{ name: string }> }).calls.map((call) => call.name)
        : [],
    );
    return {
      plan,
      ...ids,
      executor,
      stop,
      firstRun: run,
      firstRunTools,
      ...(adminKey === undefined ? {} : { adminKey }),
    };
  } catch (error) {
    await stop();
    throw error;
  }
}
