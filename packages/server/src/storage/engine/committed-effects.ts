/**
 * Where a storage hands its committed after-commit effects (docs/storage.md, "After-commit effects"):
 * the sinks the composition root registered (executor wake-ups, the turn engine). Top-level stores
 * hand theirs over at once, since their writes committed when they returned.
 */

import type { Wakeup } from "../records.js";
import type { AfterCommit, CommittedEffectSinks } from "../storage.js";

/** The registered sinks of one storage. */
export class CommittedEffects {
  readonly #sinks = new Set<CommittedEffectSinks>();

  /** Adds `sinks`; answers how to remove them. */
  add(sinks: CommittedEffectSinks): () => void {
    this.#sinks.add(sinks);
    return () => this.#sinks.delete(sinks);
  }

  /** Hands committed wake-ups to every sink (nothing when empty). */
  wakeExecutors(wakeups: readonly Wakeup[]): void {
    if (wakeups.length === 0) return;
    for (const sinks of this.#sinks) {
      try {
        sinks.wakeExecutors(wakeups);
      } catch {
        // A sink's failure is its own: the commit it hears about is done.
      }
    }
  }

  /** Hands committed ready runs to every sink (nothing when empty). */
  runsReady(runIds: readonly string[]): void {
    if (runIds.length === 0) return;
    for (const sinks of this.#sinks) {
      try {
        sinks.runsReady(runIds);
      } catch {
        // As above.
      }
    }
  }

  /** Hands committed queued model turns to every sink (nothing when empty). */
  modelTurnsQueued(runIds: readonly string[]): void {
    if (runIds.length === 0) return;
    for (const sinks of this.#sinks) {
      try {
        sinks.modelTurnsQueued(runIds);
      } catch {
        // As above.
      }
    }
  }

  /** The after-commit effects of stores outside a transaction: their writes are committed, so at once. */
  immediate(): AfterCommit {
    return {
      wakeExecutors: (wakeups) => this.wakeExecutors([...wakeups]),
      runsReady: (runIds) => this.runsReady([...new Set(runIds)]),
      modelTurnsQueued: (runIds) => this.modelTurnsQueued([...new Set(runIds)]),
    };
  }
}
