// The remembered live connections of the pending polls: found by executor, connection and key only,
// least recently used dropped first, bounded in entries and in characters, oversized rows not kept.
import { describe, expect, it } from "vitest";
import { ENTRY_MAX_CHARACTERS, LIVE_CONNECTIONS_MAX, LiveConnections } from "../../src/executors/live-connections.js";
import type { ExecutorRecord } from "../../src/storage/records.js";

function executor(executorId: string, connectionId: string, overrides: Partial<ExecutorRecord> = {}): ExecutorRecord {
  return {
    executor_id: executorId,
    connection_id: connectionId,
    epoch: 1,
    binding_ids: ["b1"],
    key_id: "k1",
    online: true,
    connected_at_ms: 1_000,
    last_heartbeat_ms: 1_000,
    lease_expires_ms: 31_000,
    disconnected_at_ms: null,
    tool_names: null,
    ...overrides,
  };
}

describe("live connections", () => {
  it("answers a remembered connection for its executor, connection and key only; forgets on request", () => {
    const live = new LiveConnections();
    const e1 = executor("e1", "conn-1");
    live.remember(e1);
    expect(live.get("e1", "conn-1", "k1")).toBe(e1);
    expect(live.get("e1", "conn-2", "k1")).toBeUndefined();
    expect(live.get("e1", "conn-1", "k2")).toBeUndefined();
    expect(live.get("e2", "conn-1", "k1")).toBeUndefined();
    live.forget("e1", "conn-1", "k1");
    expect(live.get("e1", "conn-1", "k1")).toBeUndefined();
    expect(live.size).toBe(0);
    expect(live.characters).toBe(0);
  });

  it("keeps at most its entries, the least recently used dropped first", () => {
    const live = new LiveConnections(3);
    for (const id of ["a", "b", "c"]) live.remember(executor(id, `conn-${id}`));
    live.get("a", "conn-a", "k1");
    live.remember(executor("d", "conn-d"));
    expect(live.size).toBe(3);
    expect(live.get("b", "conn-b", "k1")).toBeUndefined();
    for (const id of ["a", "c", "d"]) expect(live.get(id, `conn-${id}`, "k1")?.executor_id).toBe(id);
    // The default bound holds too, however many connections polled.
    const many = new LiveConnections();
    for (let i = 0; i < LIVE_CONNECTIONS_MAX + 100; i++) many.remember(executor(`e${i}`, `conn-${i}`));
    expect(many.size).toBe(LIVE_CONNECTIONS_MAX);
  });

  it("keeps at most its characters, and never an oversized row", () => {
    const names = (count: number, length: number) =>
      Array.from({ length: count }, (_, i) => `${i}`.padEnd(length, "t"));
    const live = new LiveConnections(1_000, 10_000);
    for (let i = 0; i < 10; i++) live.remember(executor(`e${i}`, `conn-${i}`, { tool_names: names(10, 128) }));
    expect(live.characters).toBeLessThanOrEqual(10_000);
    expect(live.size).toBeLessThan(10);
    expect(live.get("e9", "conn-9", "k1")).toBeDefined();
    expect(live.get("e0", "conn-0", "k1")).toBeUndefined();
    // A row past the largest entry is not kept (its polls read the executor each time).
    const huge = new LiveConnections();
    huge.remember(executor("big", "conn-big", { tool_names: names(1_000, 128) }));
    expect(1_000 * 128).toBeGreaterThan(ENTRY_MAX_CHARACTERS);
    expect(huge.get("big", "conn-big", "k1")).toBeUndefined();
    expect(huge.characters).toBe(0);
    // Remembering the same connection again counts it once.
    const again = new LiveConnections();
    again.remember(executor("e1", "conn-1"));
    const once = again.characters;
    again.remember(executor("e1", "conn-1"));
    expect(again.characters).toBe(once);
    expect(again.size).toBe(1);
  });
});
