// The stored receipt is the body as sent, byte for byte; the history's projection is the dry-run's.
import { beforeAll, expect, it } from "vitest";
import { dumpStoredTables, dumpTables } from "../support/table-dump.js";
import { describeEachDialect } from "../support/test-databases.js";
import {
  admin,
  buildWorld,
  type ClockedServer,
  claimed,
  connect,
  expectStatus,
  type Held,
  historyText,
  listCalls,
  receipt,
  startClockedServer,
  startRun,
  type World,
} from "./calls-harness.js";

/** The JSON value text that starts at `start` in `text` (balanced brackets, strings skipped). */
function valueTextAt(text: string, start: number): string {
  let depth = 0;
  for (let i = start; i < text.length; i++) {
    const c = text[i];
    if (c === '"') {
      for (i++; text[i] !== '"'; i++) if (text[i] === "\\") i++;
    } else if (c === "{" || c === "[") depth++;
    else if (c === "}" || c === "]") {
      depth--;
      if (depth === 0) return text.slice(start, i + 1);
    }
  }
  throw new Error("unbalanced JSON text");
}

/** The text of the value of the last `"member":` in `text`. */
function memberText(text: string, member: string): string {
  const at = text.lastIndexOf(`"${member}":`);
  if (at < 0) throw new Error(`no ${member} in ${text.slice(0, 200)}`);
  return valueTextAt(text, at + member.length + 3);
}

// A result over the 1,024-byte budget with everything a lossy reader would change.
const RESULT_TEXT = `{"z_last":"first key","count":12345678901234567890,"ratio":1.0E+2,"tiny":-0.0,"text":"caf\\u00e9 \\ud83d\\ude80 \\"q\\" ${"中文".repeat(150)}","status":"ok","next_cursor":"page-2","items":[${Array.from({ length: 40 }, (_, i) => `{"id":${i},"v":${i}.50}`).join(",")}]}`;

describeEachDialect("receipt bytes", (dialect) => {
  let server: ClockedServer;
  let world: World;

  beforeAll(async () => {
    server = await startClockedServer(dialect);
    world = await buildWorld(server, [
      { tool_calls: [{ name: "tasks.write", arguments: { title: "bytes" } }] },
      { message: "done" },
    ]);
  });

  async function acceptedCall(executorId: string): Promise<Held> {
    const runId = await startRun(server, world);
    const [call] = await listCalls(server, runId);
    const held = await claimed(server, world, runId, call.call_id, await connect(server, world, executorId));
    expectStatus(await receipt(server, world, held, { receipt_id: "acc", kind: "accepted" }), 200);
    return held;
  }

  it("stores the receipt body exactly as sent: whitespace, key order, big integers, exponents, escapes", async () => {
    const held = await acceptedCall("bytes-ex-1");
    const body =
      `{\n  "result" : ${RESULT_TEXT},\r\n\t"kind":"completed",   "receipt_id":"odd-\\u00e9",\n` +
      `  "grant":"${held.grant}","claim_id":"${held.claimId}","executor_id":"${held.executorId}"  }\n`;
    const answer = await receipt(server, world, held, body);
    expect(expectStatus(answer, 200)).toMatchObject({ receipt_id: "odd-é", kind: "completed", applied: true });
    const rows = ((await dumpTables(server.database.url)).receipts ?? []).map((row) => JSON.parse(row));
    const stored = rows.find((row) => row.call_id === held.callId && row.receipt_id === "odd-é");
    expect(stored.body_text).toBe(body);
    expect(stored.body_text.includes("12345678901234567890")).toBe(true);
  });

  it("the history's projection equals the dry-run preview of the same result, byte for byte", async () => {
    const held = await acceptedCall("bytes-ex-2");
    const fields = `"executor_id":"${held.executorId}","claim_id":"${held.claimId}","grant":"${held.grant}"`;
    const body = `{"receipt_id":"big","kind":"completed",${fields},"result":${RESULT_TEXT}}`;
    expectStatus(await receipt(server, world, held, body), 200);
    const history = await historyText(server, held.runId);
    const stored = memberText(history.slice(0, history.lastIndexOf('"type":"message"')), "context_preview");
    expect(JSON.parse(stored).truncated).toBe(true);

    const dryRunBody =
      `{"agent_version":"${world.agentVersion}","tool_name":"tasks.write","arguments":{"title":"bytes"},` +
      `"mock_receipts":[{"receipt_id":"big","kind":"completed","result":${RESULT_TEXT}}]}`;
    const dryRun = await server.call("POST", "/v1/tools/dry-run", { ...admin, body: dryRunBody });
    expect(dryRun.status, dryRun.text).toBe(200);
    expect(memberText(dryRun.text, "context_preview")).toBe(stored);
  });

  it("a result that fits is kept in the history exactly as the compact writer writes it", async () => {
    const held = await acceptedCall("bytes-ex-3");
    const fields = `"executor_id":"${held.executorId}","claim_id":"${held.claimId}","grant":"${held.grant}"`;
    const result = '{ "b" : 12345678901234567890 , "a" : 1.0E+2, "s": "\\u00e9" }';
    expectStatus(
      await receipt(server, world, held, `{"receipt_id":"small","kind":"completed",${fields},"result":${result}}`),
      200,
    );
    const history = await historyText(server, held.runId);
    expect(history).toContain('"result":{"b":12345678901234567890,"a":100.0,"s":"é"}');
  });

  it("a compact result within the budget is stored once: the receipt row points at the history's copy", async () => {
    const held = await acceptedCall("bytes-ex-4");
    const fields = `"executor_id":"${held.executorId}","claim_id":"${held.claimId}","grant":"${held.grant}"`;
    const result = `{ "count": 12345678901234567890, "text": "café ${"中文".repeat(40)} 🚀", "n": [1, 2, 3] }`;
    const body = `{"receipt_id":"once","kind":"completed",${fields},"result":${result}}`;
    expectStatus(await receipt(server, world, held, body), 200);
    const history = await historyText(server, held.runId);
    const compactResult = `{"count":12345678901234567890,"text":"café ${"中文".repeat(40)} 🚀","n":[1,2,3]}`;
    expect(history).toContain(`"result":${compactResult}}}`);
    // The result as sent, with its spaces, is not what the history holds: stored whole.
    const asStored = async (callId: string) =>
      ((await dumpStoredTables(server.database.url)).receipts ?? [])
        .map((row) => JSON.parse(row))
        .find((row) => row.call_id === callId && row.receipt_id === "once");
    expect(await asStored(held.callId)).toMatchObject({ body_text: body, result_seq: null });
    expect(
      ((await dumpTables(server.database.url)).receipts ?? []).some((row) => JSON.parse(row).body_text === body),
    ).toBe(true);

    const second = await acceptedCall("bytes-ex-5");
    const secondFields = `"executor_id":"${second.executorId}","claim_id":"${second.claimId}","grant":"${second.grant}"`;
    const sent = `{"receipt_id":"once","kind":"completed",${secondFields},"result":${compactResult}}`;
    expectStatus(await receipt(server, world, second, sent), 200);
    const stored = (await server.server.storage.receipts.listByCall(second.callId)).find(
      (row) => row.receipt_id === "once",
    );
    expect(stored?.body_text).toBe(sent);
    const raw = await asStored(second.callId);
    expect(raw.body_text).toBe(sent.replace(compactResult, ""));
    expect(Number(raw.result_seq)).toBeGreaterThan(0);
    expect(
      ((await dumpTables(server.database.url)).receipts ?? []).some((row) => JSON.parse(row).body_text === sent),
    ).toBe(true);
    // Redelivered: the same answer, replayed, nothing stored again.
    const replay = expectStatus(await receipt(server, world, second, sent), 200);
    expect(replay).toMatchObject({ replayed: true, kind: "completed" });
    // The receipts route counts the whole body's bytes.
    const listed = await server.call("GET", `/v1/runs/${second.runId}/tool-calls/${second.callId}/receipts`, admin);
    expect(listed.status).toBe(200);
    const bytes = (JSON.parse(listed.text) as { receipts: Array<{ receipt_id: string; body_bytes: number }> }).receipts;
    expect(bytes.find((entry) => entry.receipt_id === "once")?.body_bytes).toBe(Buffer.byteLength(sent, "utf8"));
  });

  it("a body opening with the usual envelope is stored without it (columns and the grant's 32 bytes) and read back byte for byte", async () => {
    const runId = await startRun(server, world);
    const [call] = await listCalls(server, runId);
    const held = await claimed(server, world, runId, call.call_id, await connect(server, world, "bytes-ex-6"));
    const envelope = (receiptId: string, kind: string) =>
      `{"executor_id":${JSON.stringify(held.executorId)},"claim_id":${JSON.stringify(held.claimId)},` +
      `"grant":"${held.grant}","receipt_id":${JSON.stringify(receiptId)},"kind":${JSON.stringify(kind)}`;
    const compactResult = `{"count":12345678901234567890,"text":"café ${"中文".repeat(40)} 🚀","n":[1,2,3]}`;
    const sent = {
      // The accepting receipt is stored by the accept statement (one CTE on PostgreSQL).
      acc: `${envelope("acc", "accepted")}}`,
      "p-é": `${envelope("p-é", "progress")},"progress":{"done":0.5,"note":"\\u00e9 \\ud83d\\ude80"}}`,
      done: `${envelope("done", "completed")},"result":${compactResult}}`,
    };
    for (const body of Object.values(sent)) expectStatus(await receipt(server, world, held, body), 200);

    const raw = ((await dumpStoredTables(server.database.url)).receipts ?? [])
      .map((row) => JSON.parse(row))
      .filter((row) => row.call_id === held.callId);
    const grant = { type: "Buffer", data: [...Buffer.from(held.grant, "base64url")] };
    expect(grant.data).toHaveLength(32);
    for (const [receiptId, body] of Object.entries(sent)) {
      const row = raw.find((r) => r.receipt_id === receiptId);
      expect(row.body_grant).toEqual(grant);
      expect(row.body_text.length).toBeLessThan(body.length);
      expect(body.startsWith(envelope(receiptId, row.kind))).toBe(true);
    }
    expect(raw.find((r) => r.receipt_id === "acc").body_text).toBe("}");
    expect(raw.find((r) => r.receipt_id === "p-é").body_text).toBe(
      sent["p-é"].slice(envelope("p-é", "progress").length),
    );
    // The completed one: its result cut too, `result_at` into the stored (envelope-less) text.
    const done = raw.find((r) => r.receipt_id === "done");
    expect(done.body_text).toBe(',"result":}');
    expect(Number(done.result_at)).toBe(',"result":'.length);
    expect(Number(done.result_seq)).toBeGreaterThan(0);

    const stored = await server.server.storage.receipts.listByCall(held.callId);
    expect(Object.fromEntries(stored.map((r) => [r.receipt_id, r.body_text]))).toEqual(sent);
    const whole = ((await dumpTables(server.database.url)).receipts ?? []).map((row) => JSON.parse(row).body_text);
    for (const body of Object.values(sent)) expect(whole).toContain(body);

    // Redelivered byte for byte: replayed, nothing stored again.
    const before = await dumpStoredTables(server.database.url);
    for (const [receiptId, body] of Object.entries(sent)) {
      const replay = expectStatus(await receipt(server, world, held, body), 200);
      expect(replay).toMatchObject({ replayed: true, receipt_id: receiptId });
    }
    expect((await dumpStoredTables(server.database.url)).receipts).toEqual(before.receipts);
    // The same receipt ID with another body is still a conflict.
    expect((await receipt(server, world, held, `${envelope("p-é", "progress")},"progress":{"done":0.6}}`)).status).toBe(
      409,
    );
  });

  it("a body with another member order or spacing is stored whole and read back exactly", async () => {
    const held = await acceptedCall("bytes-ex-7");
    const q = JSON.stringify;
    const bodies = {
      spaced: `{"executor_id": ${q(held.executorId)},"claim_id":${q(held.claimId)},"grant":"${held.grant}","receipt_id":"spaced","kind":"progress","progress":{}}`,
      reordered: `{"claim_id":${q(held.claimId)},"executor_id":${q(held.executorId)},"grant":"${held.grant}","receipt_id":"reordered","kind":"progress","progress":{}}`,
      escaped: `{"executor_id":${q(held.executorId)},"claim_id":${q(held.claimId)},"grant":"${held.grant}","receipt_id":"\\u0065sc","kind":"progress","progress":{}}`,
      tail: `{"executor_id":${q(held.executorId)},"claim_id":${q(held.claimId)},"grant":"${held.grant}","receipt_id":"tail","kind":"progress" ,"progress":{}}`,
    };
    for (const body of Object.values(bodies)) expectStatus(await receipt(server, world, held, body), 200);
    const raw = ((await dumpStoredTables(server.database.url)).receipts ?? [])
      .map((row) => JSON.parse(row))
      .filter((row) => row.call_id === held.callId && row.kind === "progress");
    expect(raw).toHaveLength(4);
    for (const row of raw) expect([row.receipt_id, row.body_grant]).toEqual([row.receipt_id, null]);
    expect(raw.map((row) => row.body_text).sort()).toEqual(Object.values(bodies).sort());
    const stored = await server.server.storage.receipts.listByCall(held.callId);
    expect(stored.filter((r) => r.kind === "progress").map((r) => r.body_text)).toEqual(Object.values(bodies));
    for (const body of Object.values(bodies)) {
      expect(expectStatus(await receipt(server, world, held, body), 200)).toMatchObject({ replayed: true });
    }
  });
});
