// The storage contract: every method of every store, run once per dialect against a fresh database.
import { ProtocolError } from "@toolhost/protocol";
import { expect, it } from "vitest";
import type { Page } from "../../src/storage/records.js";
import {
  agentRecord,
  agentVersionInput,
  allPages,
  bindingRecord,
  keyRecord,
  sessionRecord,
  toolsetRecords,
  toolsJson,
} from "../support/storage-fixtures.js";
import { describeEachDialect, useTestStorage } from "../support/test-databases.js";

const cursorOf = (value: unknown): string => Buffer.from(JSON.stringify(value)).toString("base64url");

/** Cursors no list of `list` issued. */
function badCursors(list: string): string[] {
  return [
    "not a cursor",
    "",
    "AAAA",
    "eyJ9==",
    cursorOf({}),
    cursorOf([list]),
    cursorOf({ l: "some_other_list", t: 1, id: "x", n: 1 }),
    cursorOf({ l: list, t: "1", id: "x" }),
    cursorOf({ l: list, t: 1.5, id: "x" }),
    cursorOf({ l: list, n: -0.5 }),
    cursorOf({ l: list, t: 1, id: 7 }),
  ];
}

async function expectBadCursor(run: () => Promise<unknown>): Promise<void> {
  const error = await run().then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(ProtocolError);
  expect(error).toMatchObject({ code: "validation_failed", pointer: "/cursor", status: 422 });
}

/** The reach of the operator and of an unrestricted admin: every key. */
const EVERY_KEY = { agents: "*", bindings: "*", connections: "*" } as const;

const ids = <T>(pages: Page<T>[], id: (item: T) => string): string[][] => pages.map((page) => page.items.map(id));

// Creation times deliberately out of ID order and with ties: the order is (created_at_ms, id).
const UNORDERED = [
  ["x-05", 300],
  ["x-01", 100],
  ["x-03", 200],
  ["x-02", 200],
  ["x-04", 200],
  ["x-00", 300],
  ["x-06", 50],
] as const;
const ORDERED_IDS = ["x-06", "x-01", "x-02", "x-03", "x-04", "x-00", "x-05"];

describeEachDialect("storage contract", (dialect) => {
  const storage = useTestStorage(dialect);

  it("speaks its dialect", () => {
    expect(storage().dialect).toBe(dialect);
  });

  it("keys: insert, get, find by hash; unknown IDs and hashes are not found", async () => {
    const s = storage();
    const key = keyRecord("k1", { agents: ["a1", "a2"], bindings: "*", scopes: ["admin"] });
    await s.keys.insert(key);
    expect(await s.keys.get("k1")).toEqual(key);
    expect(await s.keys.findActiveByHash(key.key_hash)).toEqual(key);
    expect(await s.keys.get("nope")).toBeUndefined();
    expect(await s.keys.findActiveByHash("0".repeat(64))).toBeUndefined();
    await expect(s.keys.insert(keyRecord("k2", { key_hash: key.key_hash }))).rejects.toThrow();
    expect(await s.keys.get("k2")).toBeUndefined();
  });

  it("keys: ensure inserts once per hash", async () => {
    const s = storage();
    const first = keyRecord("bootstrap", { agents: "*", bindings: "*" });
    expect(await s.keys.ensure(first)).toBe(true);
    expect(await s.keys.ensure({ ...first, key_id: "bootstrap-again", name: "other" })).toBe(false);
    expect(await s.keys.get("bootstrap")).toEqual(first);
    expect(await s.keys.get("bootstrap-again")).toBeUndefined();
  });

  it("keys: revoke is idempotent and keeps the first time; a revoked key is no longer active", async () => {
    const s = storage();
    const key = keyRecord("k1");
    await s.keys.insert(key);
    expect(await s.keys.revoke("nope", 5_000, EVERY_KEY)).toBeUndefined();
    expect(await s.keys.revoke("k1", 5_000, EVERY_KEY)).toEqual({ ...key, revoked_at_ms: 5_000 });
    expect(await s.keys.revoke("k1", 9_000, EVERY_KEY)).toEqual({ ...key, revoked_at_ms: 5_000 });
    expect(await s.keys.get("k1")).toEqual({ ...key, revoked_at_ms: 5_000 });
    expect(await s.keys.findActiveByHash(key.key_hash)).toBeUndefined();
    expect(await s.keys.ensure(keyRecord("k1-again", { key_hash: key.key_hash }))).toBe(false);
  });

  it("keys: list pages in creation order; a bad cursor is a validation error", async () => {
    const s = storage();
    for (const [id, at] of UNORDERED) await s.keys.insert(keyRecord(id, { created_at_ms: at }));
    const pages = await allPages((cursor) => s.keys.list({ limit: 3, cursor }, EVERY_KEY));
    expect(ids(pages, (k) => k.key_id)).toEqual([
      ORDERED_IDS.slice(0, 3),
      ORDERED_IDS.slice(3, 6),
      ORDERED_IDS.slice(6),
    ]);
    expect(pages.at(-1)?.next_cursor).toBeNull();
    for (const cursor of badCursors("keys")) await expectBadCursor(() => s.keys.list({ limit: 3, cursor }, EVERY_KEY));
  });

  it("bindings: insert answers false for a taken ID and keeps the first", async () => {
    const s = storage();
    expect(await s.bindings.insert(bindingRecord("b1", 1_000))).toBe(true);
    expect(await s.bindings.insert({ binding_id: "b1", name: "second", created_at_ms: 2_000 })).toBe(false);
    expect(await s.bindings.get("b1", "*")).toEqual(bindingRecord("b1", 1_000));
  });

  it("bindings: get and existing filter by scope ('*', a list, an empty list)", async () => {
    const s = storage();
    for (const id of ["b1", "b2", "b3"]) await s.bindings.insert(bindingRecord(id));
    expect(await s.bindings.get("b1", "*")).toEqual(bindingRecord("b1"));
    expect(await s.bindings.get("b1", ["b1", "b3"])).toEqual(bindingRecord("b1"));
    expect(await s.bindings.get("b1", ["b2"])).toBeUndefined();
    expect(await s.bindings.get("b1", [])).toBeUndefined();
    expect(await s.bindings.get("nope", "*")).toBeUndefined();
    expect(await s.bindings.existing(["b1", "b2", "nope", "b1"], "*")).toEqual(new Set(["b1", "b2"]));
    expect(await s.bindings.existing(["b1", "b2", "b3"], ["b2", "b3", "zz"])).toEqual(new Set(["b2", "b3"]));
    expect(await s.bindings.existing(["b1", "b2"], [])).toEqual(new Set());
    expect(await s.bindings.existing([], "*")).toEqual(new Set());
  });

  it("bindings: list filters by scope and pages in creation order", async () => {
    const s = storage();
    for (const [id, at] of UNORDERED) await s.bindings.insert(bindingRecord(id, at));
    const all = await allPages((cursor) => s.bindings.list({ limit: 2, cursor }, "*"));
    expect(ids(all, (b) => b.binding_id).flat()).toEqual(ORDERED_IDS);
    expect(all.map((page) => page.items.length)).toEqual([2, 2, 2, 1]);
    const scoped = await allPages((cursor) => s.bindings.list({ limit: 2, cursor }, ["x-05", "x-02", "x-06", "zz"]));
    expect(ids(scoped, (b) => b.binding_id)).toEqual([["x-06", "x-02"], ["x-05"]]);
    expect(await s.bindings.list({ limit: 5 }, [])).toEqual({ items: [], next_cursor: null });
    // A page that ends exactly at the end has no next cursor (no empty trailing page).
    const exact = await allPages((cursor) => s.bindings.list({ limit: 7, cursor }, "*"));
    expect(exact).toHaveLength(1);
    for (const cursor of badCursors("bindings"))
      await expectBadCursor(() => s.bindings.list({ limit: 2, cursor }, "*"));
  });

  it("toolsets: insert with version 1, get, getVersion; unknown ones are not found", async () => {
    const s = storage();
    const [toolset, first] = toolsetRecords("ts1", 1_000, toolsJson(["b1", "b2"]));
    await s.toolsets.insert(toolset, first);
    expect(await s.toolsets.get("ts1", "*")).toEqual(toolset);
    expect(await s.toolsets.getVersion("ts1", 1)).toEqual(first);
    expect(await s.toolsets.getVersion("ts1", 2)).toBeUndefined();
    expect(await s.toolsets.get("nope", "*")).toBeUndefined();
    expect(await s.toolsets.appendVersion("nope", toolsJson([]), 2_000, "*")).toBeUndefined();
    await expect(s.toolsets.insert(toolset, first)).rejects.toThrow();
  });

  it("toolsets: 20 concurrent appendVersion calls get distinct consecutive numbers", async () => {
    const s = storage();
    await s.toolsets.insert(...toolsetRecords("ts1"));
    const appended = await Promise.all(
      Array.from({ length: 20 }, (_, i) => s.toolsets.appendVersion("ts1", toolsJson([`b${i}`]), 2_000 + i, "*")),
    );
    const numbers = appended.map((version) => version?.version ?? -1);
    expect([...numbers].sort((a, b) => a - b)).toEqual(Array.from({ length: 20 }, (_, i) => i + 2));
    for (const [i, version] of appended.entries()) {
      expect(await s.toolsets.getVersion("ts1", numbers[i] ?? -1)).toEqual(version);
      expect(version?.tools_json).toBe(toolsJson([`b${i}`]));
    }
    expect((await s.toolsets.get("ts1", "*"))?.latest_version).toBe(21);
  });

  it("toolsets: list and listVersions page in order", async () => {
    const s = storage();
    for (const [id, at] of UNORDERED) await s.toolsets.insert(...toolsetRecords(id, at));
    const listed = await allPages((cursor) => s.toolsets.list({ limit: 3, cursor }, "*"));
    expect(ids(listed, (t) => t.toolset_id).flat()).toEqual(ORDERED_IDS);
    for (let i = 0; i < 9; i++) await s.toolsets.appendVersion("x-01", toolsJson([]), 5_000 - i, "*");
    const versions = await allPages((cursor) => s.toolsets.listVersions("x-01", { limit: 4, cursor }));
    expect(versions.map((page) => page.items.map((v) => v.version))).toEqual([
      [1, 2, 3, 4],
      [5, 6, 7, 8],
      [9, 10],
    ]);
    expect(await s.toolsets.listVersions("nope", { limit: 4 })).toEqual({ items: [], next_cursor: null });
    for (const cursor of badCursors("toolsets"))
      await expectBadCursor(() => s.toolsets.list({ limit: 3, cursor }, "*"));
    for (const cursor of badCursors("toolset_versions")) {
      await expectBadCursor(() => s.toolsets.listVersions("x-01", { limit: 3, cursor }));
    }
  });

  it("agents: insert, get and list filter by scope and page in order", async () => {
    const s = storage();
    for (const [id, at] of UNORDERED) await s.agents.insert(agentRecord(id, at));
    expect(await s.agents.get("x-01", "*")).toEqual(agentRecord("x-01", 100));
    expect(await s.agents.get("x-01", ["x-01"])).toEqual(agentRecord("x-01", 100));
    expect(await s.agents.get("x-01", ["x-02"])).toBeUndefined();
    expect(await s.agents.get("x-01", [])).toBeUndefined();
    expect(await s.agents.get("nope", "*")).toBeUndefined();
    const all = await allPages((cursor) => s.agents.list({ limit: 3, cursor }, "*"));
    expect(ids(all, (a) => a.agent_id).flat()).toEqual(ORDERED_IDS);
    const scoped = await allPages((cursor) => s.agents.list({ limit: 1, cursor }, ["x-00", "x-06"]));
    expect(ids(scoped, (a) => a.agent_id)).toEqual([["x-06"], ["x-00"]]);
    expect(await s.agents.list({ limit: 3 }, [])).toEqual({ items: [], next_cursor: null });
    for (const cursor of badCursors("agents")) await expectBadCursor(() => s.agents.list({ limit: 3, cursor }, "*"));
  });

  it("agents: versions are numbered per agent; getVersion filters by scope; listVersions pages", async () => {
    const s = storage();
    await s.toolsets.insert(...toolsetRecords("ts1"));
    await s.agents.insert(agentRecord("a1"));
    await s.agents.insert(agentRecord("a2"));
    expect(await s.agents.appendVersion(agentVersionInput("nope", "av0", "ts1", 1))).toBeUndefined();
    const v1 = await s.agents.appendVersion(agentVersionInput("a1", "av1", "ts1", 1));
    const v2 = await s.agents.appendVersion(agentVersionInput("a1", "av2", "ts1", 1));
    const other = await s.agents.appendVersion(agentVersionInput("a2", "av3", "ts1", 1));
    expect(v1).toEqual({ ...agentVersionInput("a1", "av1", "ts1", 1), number: 1 });
    expect([v2?.number, other?.number]).toEqual([2, 1]);
    expect(await s.agents.getVersion("av2", "*")).toEqual(v2);
    expect(await s.agents.getVersion("av2", ["a1"])).toEqual(v2);
    expect(await s.agents.getVersion("av2", ["a2"])).toBeUndefined();
    expect(await s.agents.getVersion("av2", [])).toBeUndefined();
    expect(await s.agents.getVersion("nope", "*")).toBeUndefined();
    for (let i = 3; i <= 5; i++) await s.agents.appendVersion(agentVersionInput("a1", `av1-${i}`, "ts1", 1));
    const pages = await allPages((cursor) => s.agents.listVersions("a1", { limit: 2, cursor }));
    expect(pages.map((page) => page.items.map((v) => v.number))).toEqual([[1, 2], [3, 4], [5]]);
    expect(pages[0]?.items[0]).toEqual(v1);
    for (const cursor of badCursors("agent_versions")) {
      await expectBadCursor(() => s.agents.listVersions("a1", { limit: 2, cursor }));
    }
  });

  it("agents: 20 concurrent appendVersion calls get distinct consecutive numbers", async () => {
    const s = storage();
    await s.toolsets.insert(...toolsetRecords("ts1"));
    await s.agents.insert(agentRecord("a1"));
    const appended = await Promise.all(
      Array.from({ length: 20 }, (_, i) => s.agents.appendVersion(agentVersionInput("a1", `av${i}`, "ts1", 1))),
    );
    expect(appended.map((v) => v?.number ?? -1).sort((a, b) => a - b)).toEqual(
      Array.from({ length: 20 }, (_, i) => i + 1),
    );
    const listed = await s.agents.listVersions("a1", { limit: 200 });
    expect(listed.items.map((v) => v.number)).toEqual(Array.from({ length: 20 }, (_, i) => i + 1));
  });

  it("agents: versionsReferencingBinding answers the versions whose toolset version uses the binding", async () => {
    const s = storage();
    await s.toolsets.insert(...toolsetRecords("ts1", 1_000, toolsJson(["b1"])));
    await s.toolsets.appendVersion("ts1", toolsJson(["b10", "b2"]), 1_100, "*"); // "b10" must not match "b1"
    await s.toolsets.appendVersion("ts1", toolsJson(["b2", "b1"]), 1_200, "*");
    await s.agents.insert(agentRecord("a1"));
    await s.agents.insert(agentRecord("a2"));
    for (const [agent, id, version] of [
      ["a1", "av1", 1],
      ["a1", "av2", 2],
      ["a1", "av3", 3],
      ["a1", "av4", 1],
      ["a2", "av5", 1],
    ] as const) {
      await s.agents.appendVersion(agentVersionInput(agent, id, "ts1", version));
    }
    const referencing = async (agent: string, binding: string) =>
      (await s.agents.versionsReferencingBinding(agent, binding)).map((v) => [v.agent_version, v.number]);
    expect(await referencing("a1", "b1")).toEqual([
      ["av1", 1],
      ["av3", 3],
      ["av4", 4],
    ]);
    expect(await referencing("a1", "b2")).toEqual([
      ["av2", 2],
      ["av3", 3],
    ]);
    expect(await referencing("a1", "b3")).toEqual([]);
    expect(await referencing("a2", "b1")).toEqual([["av5", 1]]);
    expect(await referencing("nope", "b1")).toEqual([]);
    expect((await s.agents.versionsReferencingBinding("a1", "b10"))[0]).toEqual(await s.agents.getVersion("av2", "*"));
  });

  it("sessions: insert, get and list filter by the agent's scope and page in order", async () => {
    const s = storage();
    await s.toolsets.insert(...toolsetRecords("ts1"));
    for (const agent of ["a1", "a2"]) {
      await s.agents.insert(agentRecord(agent));
      await s.agents.appendVersion(agentVersionInput(agent, `${agent}-v1`, "ts1", 1));
    }
    for (const [id, at] of UNORDERED) {
      const agent = id < "x-03" ? "a1" : "a2";
      await s.sessions.insert(sessionRecord(id, agent, `${agent}-v1`, at));
    }
    expect(await s.sessions.get("x-01", "*")).toEqual(sessionRecord("x-01", "a1", "a1-v1", 100));
    expect(await s.sessions.get("x-01", ["a1"])).toEqual(sessionRecord("x-01", "a1", "a1-v1", 100));
    expect(await s.sessions.get("x-01", ["a2"])).toBeUndefined();
    expect(await s.sessions.get("x-01", [])).toBeUndefined();
    expect(await s.sessions.get("nope", "*")).toBeUndefined();
    const all = await allPages((cursor) => s.sessions.list({ limit: 3, cursor }, "*"));
    expect(ids(all, (x) => x.session_id).flat()).toEqual(ORDERED_IDS);
    const a1 = await allPages((cursor) => s.sessions.list({ limit: 2, cursor }, ["a1"]));
    expect(ids(a1, (x) => x.session_id)).toEqual([["x-01", "x-02"], ["x-00"]]);
    expect(await s.sessions.list({ limit: 3 }, [])).toEqual({ items: [], next_cursor: null });
    for (const cursor of badCursors("sessions"))
      await expectBadCursor(() => s.sessions.list({ limit: 3, cursor }, "*"));
  });

  it("transaction: commits what work wrote and answers its value; work sees its own writes", async () => {
    const s = storage();
    const value = await s.transaction(async (t) => {
      await t.bindings.insert(bindingRecord("b1"));
      await t.toolsets.insert(...toolsetRecords("ts1"));
      const appended = await t.toolsets.appendVersion("ts1", toolsJson(["b1"]), 2_000, "*");
      expect(await t.bindings.get("b1", "*")).toEqual(bindingRecord("b1"));
      return appended?.version;
    });
    expect(value).toBe(2);
    expect(await s.bindings.get("b1", "*")).toEqual(bindingRecord("b1"));
    expect((await s.toolsets.get("ts1", "*"))?.latest_version).toBe(2);
  });

  it("transaction: a throw rolls back everything and rejects with the thrown error", async () => {
    const s = storage();
    await s.toolsets.insert(...toolsetRecords("ts0"));
    const boom = new Error("boom");
    const run = s.transaction(async (t) => {
      await t.bindings.insert(bindingRecord("b1"));
      await t.keys.insert(keyRecord("k1"));
      await t.toolsets.insert(...toolsetRecords("ts1"));
      await t.toolsets.appendVersion("ts0", toolsJson([]), 2_000, "*");
      await t.agents.insert(agentRecord("a1"));
      throw boom;
    });
    await expect(run).rejects.toBe(boom);
    expect(await s.bindings.list({ limit: 10 }, "*")).toEqual({ items: [], next_cursor: null });
    expect(await s.keys.list({ limit: 10 }, EVERY_KEY)).toEqual({ items: [], next_cursor: null });
    expect(await s.toolsets.get("ts1", "*")).toBeUndefined();
    expect(await s.toolsets.get("ts0", "*")).toEqual(toolsetRecords("ts0")[0]);
    expect(await s.toolsets.getVersion("ts0", 2)).toBeUndefined();
    expect(await s.agents.get("a1", "*")).toBeUndefined();
  });

  it("transaction: a failing statement inside rolls back the transaction's earlier writes", async () => {
    const s = storage();
    await s.keys.insert(keyRecord("k1"));
    await expect(
      s.transaction(async (t) => {
        await t.bindings.insert(bindingRecord("b1"));
        await t.keys.insert(keyRecord("k1")); // duplicate primary key
      }),
    ).rejects.toThrow();
    expect(await s.bindings.get("b1", "*")).toBeUndefined();
  });

  it("transaction: calling the top-level storage inside work fails fast instead of deadlocking", async () => {
    const s = storage();
    await expect(
      s.transaction(async (t) => {
        await t.bindings.insert(bindingRecord("b1"));
        await s.bindings.get("b1", "*");
      }),
    ).rejects.toThrow(/inside storage\.transaction/);
    await expect(s.transaction(() => s.transaction(async () => 1))).rejects.toThrow(/inside storage\.transaction/);
    expect(await s.bindings.get("b1", "*")).toBeUndefined();
    expect(await s.transaction(async (t) => t.bindings.insert(bindingRecord("b2")))).toBe(true);
  });

  it("transaction: concurrent transactions appending versions get distinct consecutive numbers", async () => {
    const s = storage();
    await s.toolsets.insert(...toolsetRecords("ts1"));
    const numbers = await Promise.all(
      Array.from({ length: 10 }, (_, i) =>
        s.transaction(async (t) => (await t.toolsets.appendVersion("ts1", toolsJson([]), 2_000 + i, "*"))?.version),
      ),
    );
    expect(numbers.map((n) => n ?? -1).sort((a, b) => a - b)).toEqual(Array.from({ length: 10 }, (_, i) => i + 2));
  });

  it("transaction: of 50 concurrent transactions, exactly the ones that did not throw are stored", async () => {
    const s = storage();
    const before = s.stats();
    const fails = (i: number) => i % 4 === 1;
    const outcomes = await Promise.allSettled(
      Array.from({ length: 50 }, (_, i) =>
        s.transaction(async (t) => {
          await t.bindings.insert(bindingRecord(`b${String(i).padStart(2, "0")}`, 1_000 + i));
          if (fails(i)) throw new Error(`refused ${i}`);
          return i;
        }),
      ),
    );
    const succeeded = Array.from({ length: 50 }, (_, i) => i).filter((i) => !fails(i));
    expect(outcomes.flatMap((o, i) => (o.status === "fulfilled" ? [[i, o.value]] : []))).toEqual(
      succeeded.map((i) => [i, i]),
    );
    expect(outcomes.flatMap((o, i) => (o.status === "rejected" ? [[i, (o.reason as Error).message]] : []))).toEqual(
      Array.from({ length: 50 }, (_, i) => i)
        .filter(fails)
        .map((i) => [i, `refused ${i}`]),
    );
    const stored = await s.bindings.list({ limit: 200 }, "*");
    expect(stored.items.map((b) => b.binding_id)).toEqual(succeeded.map((i) => `b${String(i).padStart(2, "0")}`));
    const after = s.stats();
    expect(after.transactions - before.transactions).toBe(50);
    if (dialect === "sqlite") {
      // Group commit: the 50 logical transactions shared far fewer physical commits.
      expect(after.commits - before.commits).toBeGreaterThanOrEqual(1);
      expect(after.commits - before.commits).toBeLessThan(50);
    } else {
      expect(after.commits - before.commits).toBe(succeeded.length);
    }
  });
});
