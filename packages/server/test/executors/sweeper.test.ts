// The sweep ticker: runs every sweep in order with the clock's time, survives a failing sweep (logged
// once while it keeps failing the same way), never overlaps runs, and stops (waiting for a run).
// While storage is unavailable it backs off and logs the outage once when it starts and once when it ends.
import { describe, expect, it, vi } from "vitest";
import type { Clock } from "../../src/clock.js";
import { SWEEP_OUTAGE_BACKOFF_MAX_MS, type Sweep, Sweeper } from "../../src/runtime/sweeper.js";
import { StorageUnavailableError } from "../../src/storage/storage-unavailable.js";

/** The sweeper hands each sweep its context; these sweeps only need the clock. */
type Context = { readonly clock: Clock };

function contextAt(nowMs: () => number): Context {
  return { clock: { nowMs } };
}

function logSpy() {
  const error = vi.fn();
  const warn = vi.fn();
  const info = vi.fn();
  return { log: { error, warn, info } as never, error, warn, info };
}

describe("Sweeper", () => {
  it("runs every sweep in order at the clock's time; a failure is logged and the others still run", async () => {
    const seen: string[] = [];
    let now = 1_000;
    const sweeps: Sweep<Context>[] = [
      { name: "one", run: async (_c, nowMs) => void seen.push(`one@${nowMs}`) },
      {
        name: "broken",
        run: async () => {
          throw new Error("database down");
        },
      },
      { name: "two", run: async (_c, nowMs) => void seen.push(`two@${nowMs}`) },
    ];
    const { log, error } = logSpy();
    const sweeper = new Sweeper(
      sweeps,
      contextAt(() => now),
      log,
    );
    await sweeper.runOnce();
    now = 2_000;
    await sweeper.runOnce();
    expect(seen).toEqual(["one@1000", "two@1000", "one@2000", "two@2000"]);
    // The same failure twice in a row is logged once.
    expect(error).toHaveBeenCalledTimes(1);
    expect(error.mock.calls[0]?.[0]).toMatchObject({ sweep: "broken" });
  });

  it("ticks on its interval without overlapping runs, and stop() waits for the run in progress", async () => {
    let running = 0;
    let overlapped = false;
    let runs = 0;
    let release: () => void = () => undefined;
    const sweep: Sweep<Context> = {
      name: "slow",
      run: async () => {
        running++;
        if (running > 1) overlapped = true;
        runs++;
        if (runs === 3) await new Promise<void>((resolve) => (release = resolve));
        running--;
      },
    };
    const sweeper = new Sweeper(
      [sweep],
      contextAt(() => 0),
      logSpy().log,
    );
    sweeper.start(5);
    await vi.waitFor(() => expect(runs).toBe(3), { timeout: 5_000, interval: 5 });
    let stopped = false;
    const stopping = sweeper.stop().then(() => {
      stopped = true;
    });
    await new Promise((resolve) => setTimeout(resolve, 30));
    expect(stopped).toBe(false);
    release();
    await stopping;
    await new Promise((resolve) => setTimeout(resolve, 30));
    expect(runs).toBe(3);
    expect(overlapped).toBe(false);
  });

  it("backs off while storage is unavailable, skips the later sweeps of a tick, and logs the outage once each way", async () => {
    vi.useFakeTimers();
    try {
      let down = true;
      const ran: string[] = [];
      const sweeps: Sweep<Context>[] = [
        {
          name: "first",
          run: async () => {
            ran.push("first");
            if (down) throw new StorageUnavailableError("storage is unavailable: connect ECONNREFUSED");
          },
        },
        { name: "second", run: async () => void ran.push("second") },
      ];
      const spy = logSpy();
      const sweeper = new Sweeper(
        sweeps,
        contextAt(() => 0),
        spy.log,
      );
      const intervalMs = 100;
      sweeper.start(intervalMs);
      // Ticks at 100, 300, 700, 1500, 3100 ms (the delay doubles): 5 in 4 s, where 40 would run at the interval.
      await vi.advanceTimersByTimeAsync(4_000);
      expect(ran).toEqual(["first", "first", "first", "first", "first"]);
      expect(spy.warn).toHaveBeenCalledTimes(1);
      expect(spy.error).not.toHaveBeenCalled();
      // The delay stops growing at the cap.
      await vi.advanceTimersByTimeAsync(SWEEP_OUTAGE_BACKOFF_MAX_MS * 3);
      expect(ran.length).toBe(5 + 3);
      down = false;
      await vi.advanceTimersByTimeAsync(SWEEP_OUTAGE_BACKOFF_MAX_MS);
      expect(ran.slice(-2)).toEqual(["first", "second"]);
      expect(spy.info).toHaveBeenCalledTimes(1);
      expect(spy.info.mock.calls[0]?.[1]).toMatch(/available again/);
      // Back to the interval.
      const before = ran.length;
      await vi.advanceTimersByTimeAsync(intervalMs * 10);
      expect(ran.length - before).toBe(20);
      expect(spy.warn).toHaveBeenCalledTimes(1);
      await sweeper.stop();
    } finally {
      vi.useRealTimers();
    }
  });
});
