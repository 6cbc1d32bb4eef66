// The sweep ticker: runs every sweep in order with the clock's time, survives a failing sweep (logged
// once while it keeps failing the same way), never overlaps runs, and stops (waiting for a run).
import { describe, expect, it, vi } from "vitest";
import type { AppContext } from "../../src/http/app.js";
import { type Sweep, Sweeper } from "../../src/runtime/sweeper.js";

function contextAt(nowMs: () => number): AppContext {
  return { clock: { nowMs } } as unknown as AppContext;
}

function logSpy() {
  const error = vi.fn();
  return { log: { error } as never, error };
}

describe("Sweeper", () => {
  it("runs every sweep in order at the clock's time; a failure is logged and the others still run", async () => {
    const seen: string[] = [];
    let now = 1_000;
    const sweeps: Sweep[] = [
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
    const sweep: Sweep = {
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
});
