// An executor row as a record: its binding and tool lists are parsed once per stored text, kept
// within a fixed bound, and every record gets arrays of its own.
import { describe, expect, it } from "vitest";
import { executorFromRow, parsedListsKept } from "../../src/storage/executors/executor-row.js";

function row(bindings: string[], tools: string[] | null) {
  return {
    executor_id: "exe_1",
    connection_id: "conn_1",
    epoch: 3,
    binding_ids_json: JSON.stringify(bindings),
    key_id: "key_1",
    online: 1,
    connected_at_ms: 10,
    last_heartbeat_ms: 20,
    lease_expires_ms: 30,
    disconnected_at_ms: null,
    tool_names_json: tools === null ? null : JSON.stringify(tools),
  };
}

describe("executorFromRow", () => {
  it("reads every column, and each record's lists are its own", () => {
    const first = executorFromRow(row(["b1", "b2"], ["tasks.write"]));
    expect(first).toEqual({
      executor_id: "exe_1",
      connection_id: "conn_1",
      epoch: 3,
      binding_ids: ["b1", "b2"],
      key_id: "key_1",
      online: true,
      connected_at_ms: 10,
      last_heartbeat_ms: 20,
      lease_expires_ms: 30,
      disconnected_at_ms: null,
      tool_names: ["tasks.write"],
    });
    first.binding_ids.push("changed");
    first.tool_names?.push("changed");
    const second = executorFromRow(row(["b1", "b2"], ["tasks.write"]));
    expect(second.binding_ids).toEqual(["b1", "b2"]);
    expect(second.tool_names).toEqual(["tasks.write"]);
    expect(executorFromRow(row([], null)).tool_names).toBeNull();
  });

  it("keeps at most 256 parsed lists, none longer than 4,096 characters, and still reads every list", () => {
    for (let i = 0; i < 1_000; i++) {
      expect(executorFromRow(row([`b${i}`], [`tool.${i}`])).binding_ids).toEqual([`b${i}`]);
      expect(parsedListsKept()).toBeLessThanOrEqual(256);
    }
    const long = Array.from({ length: 500 }, (_, i) => `tool.with.a.long.name.${i}`);
    expect(JSON.stringify(long).length).toBeGreaterThan(4_096);
    // The short binding list is kept first; then reading the long tool list keeps nothing more.
    executorFromRow(row(["b"], null));
    const kept = parsedListsKept();
    expect(executorFromRow(row(["b"], long)).tool_names).toEqual(long);
    expect(executorFromRow(row(["b"], long)).tool_names).toEqual(long);
    expect(parsedListsKept()).toBe(kept);
  });

  it("refuses a stored list that is not an array of strings", () => {
    expect(() => executorFromRow({ ...row([], null), binding_ids_json: '{"a":1}' })).toThrow(/malformed binding IDs/);
    expect(() => executorFromRow({ ...row([], null), tool_names_json: "[1]" })).toThrow(/malformed tool names/);
  });
});
