// The receipt and secret stores' contract, on both dialects.
import { expect, it } from "vitest";
import { openStorage } from "../../src/storage/open-storage.js";
import { StoredStateChangedError } from "../../src/storage/stored-state-changed.js";
import { callRecord, publishRuntime, receiptRecord, runRecord } from "../support/call-fixtures.js";
import { describeEachDialect, testDatabaseUrl, useTestStorage } from "../support/test-databases.js";

describeEachDialect("receipt store", (dialect) => {
  const storage = useTestStorage(dialect);

  it("insertNext numbers a call's receipts in arrival order; get and list; an existing (call_id, claim_id, receipt_id) is kept and fails with StoredStateChangedError", async () => {
    const s = storage();
    await publishRuntime(s);
    await s.runs.insert(runRecord("r1"));
    await s.calls.insertMany([callRecord("r1", "c1"), callRecord("r1", "c2", { position: 1 })]);
    // Odd bytes survive exactly: whitespace, escapes, big integers, astral characters.
    const body =
      '{ "receipt_id" : "r-1",\n\t"result": {"n": 12345678901234567890, "f": 1.0E+2, "s": "\\u00e9\u{1f600}"} }';
    const first = receiptRecord("c1", "r-1", 1, { body_text: body, kind: "completed", applied: false });
    await expect(s.receipts.insertNext(first)).resolves.toBeUndefined();
    await expect(s.receipts.insertNext(receiptRecord("c1", "r-1", 2, { body_text: "other" }))).rejects.toThrow(
      StoredStateChangedError,
    );
    expect(await s.receipts.get("c1", "clm1", "r-1")).toEqual(first);
    expect(await s.receipts.get("c1", "clm2", "r-1")).toBeUndefined();
    // The refused receipt took no number: the next one is 2, and another call's count apart.
    const second = receiptRecord("c1", "r-0", 2);
    await expect(s.receipts.insertNext(second)).resolves.toBeUndefined();
    await s.receipts.insertNext(receiptRecord("c2", "r-1", 1));
    expect(await s.receipts.listByCall("c1")).toEqual([first, second]);
    expect(await s.receipts.listByCall("c2")).toEqual([receiptRecord("c2", "r-1", 1)]);
    expect(await s.receipts.get("c1", "clm1", "nope")).toBeUndefined();
    expect(await s.receipts.listByCall("c3")).toEqual([]);
  });

  it("receipt IDs count per claim: another claim on the same call keeps its own receipt under the same ID", async () => {
    const s = storage();
    await publishRuntime(s);
    await s.runs.insert(runRecord("r1"));
    await s.calls.insertMany([callRecord("r1", "c1")]);
    const earlier = receiptRecord("c1", "acc", 1, { kind: "accepted", claim_id: "clm1", executor_id: "e1" });
    const later = receiptRecord("c1", "acc", 2, { kind: "accepted", claim_id: "clm2", executor_id: "e2" });
    await expect(s.receipts.insertNext(earlier)).resolves.toBeUndefined();
    await expect(s.receipts.insertNext(later)).resolves.toBeUndefined();
    await expect(s.receipts.insertNext({ ...later, body_text: "again" })).rejects.toThrow(StoredStateChangedError);
    expect(await s.receipts.get("c1", "clm1", "acc")).toEqual(earlier);
    expect(await s.receipts.get("c1", "clm2", "acc")).toEqual(later);
    expect(await s.receipts.listByCall("c1")).toEqual([earlier, later]);
  });

  it("a receipt of an unknown call is refused (foreign key)", async () => {
    const s = storage();
    await expect(s.receipts.insertNext(receiptRecord("missing", "r-1", 1))).rejects.toThrow();
  });
});

describeEachDialect("secret store", (dialect) => {
  const storage = useTestStorage(dialect);

  it("getOrCreate stores the first candidate and answers it from then on", async () => {
    const s = storage();
    expect(await s.secrets.getOrCreate("grant_key", "first", 1_000)).toBe("first");
    expect(await s.secrets.getOrCreate("grant_key", "second", 2_000)).toBe("first");
    expect(await s.secrets.getOrCreate("other", "x", 2_000)).toBe("x");
  });

  it("concurrent callers on two storages of one database all get the same winner", async () => {
    const database = await testDatabaseUrl(dialect);
    const a = await openStorage(database.url);
    const b = await openStorage(database.url, { migrate: false });
    try {
      const candidates = Array.from({ length: 20 }, (_, i) => `candidate-${i}`);
      const values = await Promise.all(
        candidates.map((candidate, i) => (i % 2 === 0 ? a : b).secrets.getOrCreate("grant_key", candidate, 1_000)),
      );
      expect(new Set(values).size).toBe(1);
      expect(candidates).toContain(values[0]);
    } finally {
      await a.close();
      await b.close();
      await database.dispose();
    }
  });
});
