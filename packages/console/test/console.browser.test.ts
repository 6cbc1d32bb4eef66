// The console in Chromium against a real server with the demo: sign in with the demo's admin key;
// on 检查 Schema 与模拟回执, a dry-run whose mock result is 40 KiB shows the truncated preview, the
// byte-budget bar and the preserved next_cursor; an invalid argument is shown inline and goes away
// once fixed; a completed run's timeline and history; the executor online with its tools.
import { afterAll, beforeAll, expect, it } from "vitest";
import {
  type ConsoleWorld,
  describeInChromium,
  largeTasksResult,
  seriousAxeViolations,
  startConsoleWorld,
} from "./browser-harness.js";

/** A request to the world's API with the demo's admin key; the parsed answer (throws on an error status). */
async function api(world: ConsoleWorld, method: string, path: string, body?: unknown): Promise<unknown> {
  const response = await fetch(`${world.server.url}${path}`, {
    method,
    headers: {
      authorization: `Bearer ${world.adminKey}`,
      ...(body === undefined ? {} : { "content-type": "application/json" }),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await response.text();
  if (!response.ok) throw new Error(`${method} ${path}: ${response.status} ${text}`);
  return JSON.parse(text);
}

describeInChromium("the console in Chromium", () => {
  let world: ConsoleWorld;

  beforeAll(async () => {
    world = await startConsoleWorld();
  }, 120_000);
  afterAll(async () => {
    await world?.close();
  });

  it("signs in with a pasted key, kept in sessionStorage and never in the URL", async () => {
    const { page } = world;
    await page.goto("/");
    await expect.poll(() => page.getByRole("heading", { name: "登录" }).isVisible()).toBe(true);
    const field = page.getByLabel("API 密钥");
    await field.fill("th_not-a-key");
    await page.getByRole("button", { name: "登录" }).click();
    await expect.poll(() => page.getByRole("alert").textContent()).toContain("unauthorized");
    await field.fill(world.adminKey);
    await field.press("Enter");
    await page.getByTestId("runs-table").waitFor();
    const firstRun = world.demo.firstRun?.run_id as string;
    expect(await page.getByTestId("runs-table").textContent()).toContain(firstRun);
    expect(page.url()).not.toContain(world.adminKey);
    expect(await page.evaluate('window.sessionStorage.getItem("toolhost.console.key")')).toBe(world.adminKey);
    expect(await page.evaluate('window.localStorage.getItem("toolhost.console.key")')).toBeNull();
  });

  it("dry-runs a 40 KiB mock result: truncated preview, budget bar, preserved next_cursor", async () => {
    const { page } = world;
    await page.getByRole("link", { name: "检查 Schema 与模拟回执" }).click();
    await page.getByRole("heading", { name: "检查 Schema 与模拟回执", level: 1 }).waitFor();
    await page.getByLabel("工具").selectOption("tasks.read");
    const result = largeTasksResult(40 * 1024);
    await page.locator('input[type="file"]').setInputFiles({
      name: "tasks-page-1.json",
      mimeType: "application/json",
      buffer: Buffer.from(result),
    });
    await expect
      .poll(() => page.getByTestId("receipt-editor-1").locator("textarea").inputValue())
      .toContain('"next_cursor":"page-2"');
    await page.getByRole("button", { name: "检查", exact: true }).click();
    const preview = page.getByTestId("context-preview");
    await preview.waitFor();
    expect(await preview.textContent()).toContain("已截断");
    const bar = await page.getByTestId("budget-bar").getAttribute("aria-label");
    expect(bar).toBe(
      `原始 ${Buffer.byteLength(result).toLocaleString("en-US")} 字节，保留 16,384 字节，预算 16,384 字节`,
    );
    const preserved = page.getByTestId("preserved-fields");
    expect(await preserved.getByRole("row", { name: /next_cursor/ }).textContent()).toContain('"page-2"');
    expect(await page.getByTestId("preview-head").textContent()).toMatch(/^\{"tasks":\[\{"task_id":"task-1"/);
    expect(await page.getByTestId("preview-tail").textContent()).toContain("page-2");
    expect(await page.getByTestId("not-verified").textContent()).toContain("execution_verified: false");
    await world.screenshot("console-schema.png");
  });

  it("shows an invalid argument inline, and the check passes once it is fixed", async () => {
    const { page } = world;
    await page.getByLabel("工具").selectOption("tasks.read");
    const editor = page.getByTestId("arguments-editor");
    const text = editor.locator("textarea");
    await text.fill('{"limit": "ten"}');
    await text.press("Control+Enter");
    const problems = editor.getByTestId("problems");
    await expect.poll(() => problems.textContent()).toMatch(/\/limit.*must be integer/);
    expect(await text.getAttribute("aria-invalid")).toBe("true");
    expect(await page.getByTestId("dry-run-result").textContent()).toContain("参数不符合输入 Schema");
    await world.screenshot("console-schema-invalid.png");
    await text.fill('{"limit": 10}');
    // Editing hides the stale problem at once; the next check confirms the fix.
    expect(await problems.count()).toBe(0);
    await page.getByRole("button", { name: "检查", exact: true }).click();
    await expect.poll(() => page.getByTestId("dry-run-result").textContent()).toContain("参数符合输入 Schema");
    expect(await text.getAttribute("aria-invalid")).toBe("false");
  });

  it("opens a completed run's timeline and the history as the model saw it", async () => {
    const { page } = world;
    await page.getByRole("button", { name: "English" }).click();
    await page.getByRole("link", { name: "Runs" }).click();
    const runId = world.demo.firstRun?.run_id as string;
    await page.getByRole("link", { name: runId }).click();
    await page.getByRole("heading", { name: `Run ${runId}` }).waitFor();
    const calls = page.getByTestId("call-timeline");
    await expect.poll(() => calls.count()).toBe(2);
    const create = await calls.nth(0).textContent();
    expect(create).toContain("tasks.create");
    expect(create).toContain("claimed by task-service-demo");
    expect(create).toContain("start confirmed by the server (accepted)");
    expect(create).toContain("receipt completed");
    expect(create).toContain("settled: completed");
    expect(await calls.nth(1).textContent()).toContain("tasks.read");
    const history = await page.getByTestId("history").textContent();
    expect(history).toContain("Add 'Buy milk' to my tasks");
    expect(history).toContain("Buy milk");
    expect(await page.getByTestId("run-output").textContent()).toBe("Created the task and read the list.");
    // The calls as a waterfall, each with its durations and timestamps in text.
    const rows = page.getByTestId("waterfall-row");
    await expect.poll(() => rows.count()).toBe(2);
    const durations = await rows.nth(0).getByTestId("waterfall-text").textContent();
    expect(durations).toMatch(/^\d+(\.\d+)? m?s \(waiting for a claim \d/);
    expect(durations).toContain("running");
    expect(await rows.nth(0).locator("time").count()).toBe(2);
    // Its model requests: a bar per request under the max_context_tokens line, and the same figures as a table.
    const requests = (await api(world, "GET", `/v1/runs/${runId}/model-requests`)) as {
      data: { estimated_input_tokens: number }[];
    };
    expect(requests.data.length).toBeGreaterThan(0);
    const chart = page.getByTestId("token-chart");
    await chart.waitFor();
    expect(await chart.locator('[data-testid="token-bar"]').count()).toBe(requests.data.length);
    const version = (await api(
      world,
      "GET",
      `/v1/agents/${world.demo.agentId}/versions/${world.demo.agentVersion}`,
    )) as { max_context_tokens: number };
    expect(await chart.locator("title").textContent()).toBe(
      `Estimated and actual input tokens of ${requests.data.length} model requests against max_context_tokens ${version.max_context_tokens.toLocaleString("en-US")}`,
    );
    const described = await chart.getAttribute("aria-describedby");
    const table = page.getByTestId("model-requests-table");
    expect(await table.getAttribute("id")).toBe(described);
    expect(await table.locator("tbody tr").count()).toBe(requests.data.length);
    expect(await table.locator("tbody tr").first().textContent()).toContain(
      (requests.data[0]?.estimated_input_tokens ?? -1).toLocaleString("en-US"),
    );
    // Once the run and its calls have ended the page stops following it.
    await expect.poll(() => page.getByTestId("live-mode").textContent()).toBe("ended");
    await world.screenshot("console-run.png");
    await world.screenshot("console-run-durations.png", page.locator('section[aria-labelledby="waterfall-title"]'));
    await world.screenshot("console-run-model-requests.png", page.getByTestId("model-requests"));
  });

  it("shows the example executor online with the tools it serves, and the binding's checks", async () => {
    const { page } = world;
    await page.getByRole("link", { name: "Executors & bindings" }).click();
    const row = page.getByTestId("executor-task-service-demo");
    await row.waitFor();
    const text = await row.textContent();
    expect(text).toContain("online");
    expect(text).toContain("task-service");
    expect(text).toContain("tasks.create");
    expect(text).toContain("tasks.read");
    const binding = await page.getByTestId("binding-task-service").textContent();
    expect(binding).toContain("executor_online");
    expect(binding).toContain("execution_verified");
    await world.screenshot("console-executors.png");
  });

  it("filters the runs by status and agent, pages by cursor and searches by ID, all kept in the URL", async () => {
    const { page } = world;
    const firstRun = world.demo.firstRun?.run_id as string;
    const second = (await api(world, "POST", `/v1/sessions/${world.demo.sessionId}/runs`, { input: "again" })) as {
      run_id: string;
    };
    await expect
      .poll(async () => ((await api(world, "GET", `/v1/runs/${second.run_id}`)) as { status: string }).status)
      .toMatch(/completed|failed/);
    await page.goto("/runs?status=failed");
    await page.getByTestId("runs-empty").waitFor();
    expect(await page.getByLabel("Status", { exact: true }).inputValue()).toBe("failed");
    await page.getByLabel("Status", { exact: true }).selectOption("completed");
    await expect.poll(() => page.url()).toMatch(/\/runs\?status=completed$/);
    await expect.poll(() => page.getByTestId("runs-table").textContent()).toContain(firstRun);
    await page.getByLabel("Agent", { exact: true }).selectOption(world.demo.agentId as string);
    await expect.poll(() => page.url()).toContain(`agent=${world.demo.agentId}`);
    await page.reload();
    await page.getByTestId("runs-table").waitFor();
    expect(await page.getByLabel("Status", { exact: true }).inputValue()).toBe("completed");
    expect(await page.getByLabel("Agent", { exact: true }).inputValue()).toBe(world.demo.agentId);
    await world.screenshot("console-runs.png");
    await page.goBack();
    await expect.poll(() => page.url()).toMatch(/\/runs\?status=completed$/);
    await page.goBack();
    await page.getByTestId("runs-empty").waitFor();
    expect(await seriousAxeViolations(page)).toEqual([]);

    // One run per page: the next page (the API's cursor) shows the older run; back shows the newer.
    await page.goto("/runs?limit=1");
    const rows = page.getByTestId("runs-table").locator("tbody tr");
    await expect.poll(() => rows.textContent()).toContain(second.run_id);
    await page.getByRole("link", { name: "Next page →" }).click();
    await expect.poll(() => page.url()).toContain("cursor=");
    await expect.poll(() => rows.count()).toBe(1);
    await expect.poll(() => rows.textContent()).not.toContain(second.run_id);
    await page.reload();
    await expect.poll(() => rows.count()).toBe(1);
    await expect.poll(() => rows.textContent()).not.toContain(second.run_id);
    await page.goBack();
    await expect.poll(() => rows.textContent()).toContain(second.run_id);

    const search = page.getByLabel("Find by ID");
    await search.fill(world.demo.sessionId as string);
    await search.press("Enter");
    await page.getByTestId("session-filter").waitFor();
    expect(page.url()).toContain(`session=${world.demo.sessionId}`);
    await expect.poll(() => page.getByTestId("runs-table").textContent()).toContain(firstRun);
    await search.fill("no-such-thing");
    await search.press("Enter");
    await expect
      .poll(() => page.getByTestId("search-note").textContent())
      .toContain("is not a run, session or call ID");
    await search.fill("call_0000000000");
    await search.press("Enter");
    await expect.poll(() => page.getByTestId("search-note").textContent()).toContain("No call call_0000000000");
    const calls = (await api(world, "GET", `/v1/runs/${firstRun}/tool-calls`)) as { data: { call_id: string }[] };
    await search.fill(calls.data[0]?.call_id as string);
    await search.press("Enter");
    await page.getByRole("heading", { name: `Run ${firstRun}` }).waitFor();
    await page.goto("/runs");
    await page.getByLabel("Find by ID").fill(second.run_id);
    await page.getByLabel("Find by ID").press("Enter");
    await page.getByRole("heading", { name: `Run ${second.run_id}` }).waitFor();
  });

  it("cancels a call and a run, and compensates a call, each after a confirmation, showing the API's answer", async () => {
    const { page } = world;
    // With the executor stopped, a new run waits for its first call, which stays pending.
    await world.demo.stop();
    const waiting = (await api(world, "POST", `/v1/sessions/${world.demo.sessionId}/runs`, { input: "wait" })) as {
      run_id: string;
    };
    await expect
      .poll(async () => ((await api(world, "GET", `/v1/runs/${waiting.run_id}`)) as { status: string }).status)
      .toBe("waiting_for_tools");
    await page.goto(`/runs/${waiting.run_id}`);
    const card = page.getByTestId("call-timeline").first();
    await card.waitFor();
    expect(await card.getByRole("button", { name: "Compensate" }).count()).toBe(0);
    const cancelCall = card.getByRole("button", { name: "Business cancel" });
    await cancelCall.click();
    const dialog = page.getByRole("dialog", { name: /^Business-cancel call call_/ });
    await dialog.waitFor();
    expect(await page.evaluate("document.activeElement?.closest('dialog') !== null")).toBe(true);
    expect(await seriousAxeViolations(page)).toEqual([]);
    // Escape closes it and nothing is sent.
    await page.keyboard.press("Escape");
    await expect.poll(() => dialog.isVisible()).toBe(false);
    const calls = async () =>
      ((await api(world, "GET", `/v1/runs/${waiting.run_id}/tool-calls`)) as { data: { status: string }[] }).data;
    expect((await calls())[0]?.status).toBe("pending");
    await cancelCall.click();
    await dialog.getByRole("button", { name: "Yes, cancel the call" }).click();
    await expect
      .poll(() => card.getByTestId("action-answer").textContent())
      .toBe("The server answered: cancel requested, call cancelled.");
    expect((await calls())[0]?.status).toBe("cancelled");
    await expect.poll(() => card.getByRole("button", { name: "Business cancel" }).count()).toBe(0);

    const cancelRun = page.getByTestId("cancel-run");
    await cancelRun.getByRole("button", { name: "Cancel run" }).click();
    const runDialog = page.getByRole("dialog", { name: `Cancel run ${waiting.run_id}?` });
    await runDialog.getByRole("button", { name: "Yes, cancel the run" }).click();
    await expect
      .poll(() => cancelRun.getByTestId("action-answer").textContent())
      .toBe("The server answered: run cancelled.");
    expect(((await api(world, "GET", `/v1/runs/${waiting.run_id}`)) as { status: string }).status).toBe("cancelled");
    await expect.poll(() => cancelRun.getByRole("button").count()).toBe(0);

    // The first run's completed write call can be compensated; its read call cannot.
    const firstRun = world.demo.firstRun?.run_id as string;
    await page.goto(`/runs/${firstRun}`);
    const cards = page.getByTestId("call-timeline");
    await expect.poll(() => cards.count()).toBe(2);
    expect(await page.getByRole("button", { name: "Cancel run" }).count()).toBe(0);
    expect(await cards.nth(1).getByRole("button").count()).toBe(0);
    const compensate = cards.nth(0).getByTestId("compensate-call");
    await compensate.getByRole("button", { name: "Compensate" }).click();
    const form = page.getByRole("dialog", { name: /^Compensate call call_/ });
    await form.getByLabel("Compensating tool").fill("tasks.nope");
    await form.getByRole("button", { name: "Yes, compensate" }).click();
    await expect.poll(() => compensate.getByRole("alert").textContent()).toContain("unknown_reference");
    await compensate.getByRole("button", { name: "Compensate" }).click();
    await form.getByLabel("Compensating tool").fill("tasks.read");
    await form.getByLabel("Arguments (JSON)").fill("{}");
    await form.getByRole("button", { name: "Yes, compensate" }).click();
    await expect
      .poll(() => compensate.getByTestId("action-answer").textContent())
      .toMatch(/^The server answered: compensation call call_\w+ created\.$/);
    await expect.poll(() => cards.count()).toBe(3);
  });

  it("applies the run's events as they come, reading again only what changed", async () => {
    const { page } = world;
    // The executor was stopped above: a new run waits with its first call pending.
    const run = (await api(world, "POST", `/v1/sessions/${world.demo.sessionId}/runs`, { input: "live" })) as {
      run_id: string;
    };
    const path = `/v1/runs/${run.run_id}`;
    const calls = async () => ((await api(world, "GET", `${path}/tool-calls`)) as { data: { call_id: string }[] }).data;
    await expect.poll(async () => (await calls()).length).toBe(1);
    await page.goto(`/runs/${run.run_id}`);
    await expect.poll(() => page.getByTestId("live-mode").textContent()).toBe("live (event stream)");
    const cards = page.getByTestId("call-timeline");
    await expect.poll(() => cards.count()).toBe(1);
    const modelRows = page.getByTestId("model-requests-table").locator("tbody tr");
    await expect.poll(() => modelRows.count()).toBe(1);
    // Let the replayed events settle, then watch what the page asks for.
    await page.waitForTimeout(500);
    const asked: string[] = [];
    page.on("request", (request) => asked.push(new URL(request.url()).pathname));
    const first = (await calls())[0]?.call_id as string;
    await api(world, "POST", `${path}/tool-calls/${first}/cancel`, {});
    // The cancel settles the call, the history grows, the next turn asks the model and makes the next call.
    await expect.poll(() => cards.count()).toBe(2);
    await expect.poll(() => cards.nth(0).textContent()).toContain("cancelled");
    await expect.poll(() => modelRows.count()).toBe(2);
    await expect.poll(() => page.getByTestId("history").textContent()).toContain("cancelled");
    const second = (await calls())[1]?.call_id as string;
    await expect.poll(() => asked).toContain(`${path}/tool-calls/${second}/receipts`);
    expect(asked).toContain(`${path}/tool-calls/${first}/receipts`);
    expect(asked).toContain(`${path}/history`);
    // Neither the run, nor its calls list, nor its model requests were read again: the events carried them.
    expect(asked.filter((asked) => [path, `${path}/tool-calls`, `${path}/model-requests`].includes(asked))).toEqual([]);
    await api(world, "POST", `${path}/cancel`, {});
    await expect.poll(() => page.getByTestId("live-mode").textContent()).toBe("ended");
  });

  it("can be used by keyboard: the skip link comes first and reaches the content", async () => {
    const { page } = world;
    await page.goto("/runs");
    await page.getByTestId("runs-table").waitFor();
    await page.bringToFront();
    await page.keyboard.press("Tab");
    expect(await page.evaluate("document.activeElement?.textContent")).toBe("Skip to content");
    await page.keyboard.press("Enter");
    expect(await page.evaluate("document.activeElement?.id")).toBe("main");
  });

  it("shows its own not-found page for an unknown path", async () => {
    const { page } = world;
    const answer = await page.goto("/no/such/page");
    expect(answer?.status()).toBe(404);
    await page.getByRole("heading", { name: /Page not found|找不到这个页面/ }).waitFor();
    await page.getByRole("link", { name: /Go to the runs|去运行列表/ }).click();
    await page.getByTestId("runs-table").waitFor();
  });

  it("follows the browser's language until one is chosen", async () => {
    const page = await world.context.newPage();
    try {
      await page.addInitScript('Object.defineProperty(navigator, "languages", { get: () => ["en-US", "zh-CN"] })');
      await page.goto("/");
      await page.evaluate('window.localStorage.removeItem("toolhost.console.language")');
      await page.reload();
      await page.getByRole("button", { name: "中文" }).waitFor();
      expect(await page.evaluate("document.documentElement.lang")).toBe("en");
      await page.getByRole("button", { name: "中文" }).click();
      await page.reload();
      expect(await page.evaluate("document.documentElement.lang")).toBe("zh-CN");
      expect(await page.evaluate('window.localStorage.getItem("toolhost.console.language")')).toBe("zh");
    } finally {
      await page.close();
    }
  });

  it("has no serious or critical axe-core violations on any page, in either language", async () => {
    const { page } = world;
    const runId = world.demo.firstRun?.run_id as string;
    const found: Record<string, unknown> = {};
    for (const language of ["zh", "en"]) {
      await page.goto("/");
      await page.evaluate(`window.localStorage.setItem("toolhost.console.language", "${language}")`);
      await page.evaluate('window.sessionStorage.removeItem("toolhost.console.key")');
      await page.reload();
      await page.getByRole("heading", { level: 1 }).waitFor();
      found[`${language} sign-in`] = await seriousAxeViolations(page);
      await page.evaluate(`window.sessionStorage.setItem("toolhost.console.key", ${JSON.stringify(world.adminKey)})`);
      for (const [name, path, ready] of [
        ["runs", "/runs", "runs-table"],
        ["runs of no status", "/runs?status=failed", "runs-empty"],
        ["runs of a session", `/runs?session=${world.demo.sessionId}&limit=1`, "session-filter"],
        ["run", `/runs/${runId}`, "token-chart"],
        ["schema", "/schema", undefined],
        ["executors", "/executors", "binding-task-service"],
        ["not found", "/nope", undefined],
      ] as const) {
        await page.goto(path);
        if (ready === undefined) await page.getByRole("heading", { level: 1 }).waitFor();
        else await page.getByTestId(ready).first().waitFor();
        found[`${language} ${name}`] = await seriousAxeViolations(page);
        if (name === "run") {
          // The confirmation dialog of an action, open.
          await page.getByTestId("compensate-call").getByRole("button").click();
          await page.getByRole("dialog").waitFor();
          found[`${language} run, compensate dialog open`] = await seriousAxeViolations(page);
          await page.keyboard.press("Escape");
        }
      }
    }
    for (const [page, violations] of Object.entries(found)) expect(violations, page).toEqual([]);
  });
});
