/**
 * Wake-ups for long-polling executors (docs/executors.md, "Wake-ups"): the flow that committed new
 * claimable calls calls `notify` AFTER its commit with one wake-up per call, and each wake-up ends the
 * wait of ONE waiting request that serves the call — the one waiting longest among those on the call's
 * binding whose connection serves its tool (declared `tool_names`, or all), so waiters take turns. A
 * waiter that then cannot take the call hands it on (`handedOn`). A cancel wake-up ends every wait of
 * the executor holding the call. Server CPU per new call therefore stays flat however many executors
 * wait, instead of every waiter of the binding querying again for every call.
 */

import type { Wakeup } from "./wakeup.js";

/** What a waiting long-poll serves. */
export interface WaitFor {
  /** The bindings the connection serves (in the key's scope). */
  readonly binding_ids: readonly string[];
  /** The tools the connection declared; null: every tool of its bindings. */
  readonly tool_names: readonly string[] | null;
  /** The executor the wait is for: a cancel of a call it holds wakes it. */
  readonly executor_id: string;
}

/** What ended a wait: the wake-up it was given, or `everyone` (notifications may have been lost: query again). */
export type Woken = Wakeup | "everyone";

/** Notifies and waits for new claimable calls and cancels. */
export interface CallWakeups {
  /** Wakes one waiter per call wake-up and the holder's waiters per cancel; call only after the commit. */
  notify(wakeups: Iterable<Wakeup>): void;
  /**
   * Resolves with what woke the wait, or undefined after `timeoutMs`, when `signal` aborts (e.g. the
   * client went away) or when closing.
   */
  wait(waitFor: WaitFor, timeoutMs: number, signal?: AbortSignal): Promise<Woken | undefined>;
  /** Stops every wait (answers undefined) and any background listener. */
  close(): Promise<void>;
}

/** One waiting request. */
interface Waiter {
  readonly waitFor: WaitFor;
  readonly finish: (woken: Woken | undefined) => void;
}

/** True when `waiter`'s connection serves `toolName`. */
function serves(waiter: Waiter, toolName: string): boolean {
  const tools = waiter.waitFor.tool_names;
  return tools === null || tools.includes(toolName);
}

/** Adds `waiter` to the set under `key` of `map`. */
function addTo(map: Map<string, Set<Waiter>>, key: string, waiter: Waiter): void {
  let set = map.get(key);
  if (set === undefined) {
    set = new Set();
    map.set(key, set);
  }
  set.add(waiter);
}

/** Removes `waiter` from the set under `key` of `map` (and the set once empty). */
function removeFrom(map: Map<string, Set<Waiter>>, key: string, waiter: Waiter): void {
  const set = map.get(key);
  set?.delete(waiter);
  if (set?.size === 0) map.delete(key);
}

/** In-process wake-ups: one server process (several processes on PostgreSQL add a NOTIFY relay). */
export class InProcessCallWakeups implements CallWakeups {
  /** Waiters per binding, longest waiting first (a Set keeps insertion order; a woken waiter re-enters last). */
  private readonly byBinding = new Map<string, Set<Waiter>>();
  private readonly byExecutor = new Map<string, Set<Waiter>>();
  private readonly waiters = new Set<Waiter>();
  private closed = false;

  notify(wakeups: Iterable<Wakeup>): void {
    this.deliver(wakeups);
  }

  /** Wakes this process's waiters for `wakeups`; answers the wake-ups no waiter here took. */
  deliver(wakeups: Iterable<Wakeup>): Wakeup[] {
    const left: Wakeup[] = [];
    for (const wakeup of wakeups) {
      if (wakeup.kind === "call") {
        let chosen: Waiter | undefined;
        for (const waiter of this.byBinding.get(wakeup.binding_id) ?? []) {
          if (!serves(waiter, wakeup.tool_name)) continue;
          chosen = waiter;
          break;
        }
        // Finishing removes the waiter at once: the next wake-up of this batch goes to the next one.
        if (chosen === undefined) left.push(wakeup);
        else chosen.finish(wakeup);
      } else {
        const holders = this.byExecutor.get(wakeup.executor_id);
        if (holders === undefined) left.push(wakeup);
        else for (const waiter of [...holders]) waiter.finish(wakeup);
      }
    }
    return left;
  }

  wait(waitFor: WaitFor, timeoutMs: number, signal?: AbortSignal): Promise<Woken | undefined> {
    if (this.closed || timeoutMs <= 0 || signal?.aborted === true) return Promise.resolve(undefined);
    return new Promise<Woken | undefined>((resolve) => {
      let timer: NodeJS.Timeout | undefined;
      let done = false;
      const onAbort = (): void => waiter.finish(undefined);
      const waiter: Waiter = {
        waitFor,
        finish: (woken) => {
          if (done) return;
          done = true;
          if (timer !== undefined) clearTimeout(timer);
          signal?.removeEventListener("abort", onAbort);
          for (const bindingId of waitFor.binding_ids) removeFrom(this.byBinding, bindingId, waiter);
          removeFrom(this.byExecutor, waitFor.executor_id, waiter);
          this.waiters.delete(waiter);
          resolve(woken);
        },
      };
      for (const bindingId of new Set(waitFor.binding_ids)) addTo(this.byBinding, bindingId, waiter);
      addTo(this.byExecutor, waitFor.executor_id, waiter);
      this.waiters.add(waiter);
      signal?.addEventListener("abort", onAbort, { once: true });
      timer = setTimeout(() => waiter.finish(undefined), timeoutMs);
    });
  }

  /** How many requests wait now. */
  get waiting(): number {
    return this.waiters.size;
  }

  /** Wakes every waiter (they query again): after a relay outage, when notifications may have been missed. */
  wakeAll(): void {
    for (const waiter of [...this.waiters]) waiter.finish("everyone");
  }

  async close(): Promise<void> {
    this.closed = true;
    for (const waiter of [...this.waiters]) waiter.finish(undefined);
  }
}
