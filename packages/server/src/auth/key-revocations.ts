/**
 * Who on this instance must hear at once that a key was revoked: the run event streams it opened
 * (they end within moments instead of delivering to a revoked key). The revoke route tells it for its
 * own instance; the revocation relay (`postgres-revocation-relay.ts`) for revocations made elsewhere.
 * When the relay may have missed some (its listener was away), every watcher is told: a stream that
 * ends is resumed by its client, whose key is then checked again.
 */

/** Watchers of key revocations, by key ID. */
export class KeyRevocations {
  readonly #watchers = new Map<string, Set<() => void>>();

  /** Calls `onRevoked` once `keyId` is revoked (or revocations may have been missed); answers how to stop. */
  watch(keyId: string, onRevoked: () => void): () => void {
    let watchers = this.#watchers.get(keyId);
    if (watchers === undefined) {
      watchers = new Set();
      this.#watchers.set(keyId, watchers);
    }
    watchers.add(onRevoked);
    return () => {
      const current = this.#watchers.get(keyId);
      if (current === undefined) return;
      current.delete(onRevoked);
      if (current.size === 0) this.#watchers.delete(keyId);
    };
  }

  /** Tells the watchers of `keyId` that it was revoked. */
  revoked(keyId: string): void {
    const watchers = this.#watchers.get(keyId);
    if (watchers === undefined) return;
    this.#watchers.delete(keyId);
    for (const onRevoked of watchers) onRevoked();
  }

  /** Tells every watcher: revocations made elsewhere may have gone unheard. */
  mayHaveMissed(): void {
    const all = [...this.#watchers.values()];
    this.#watchers.clear();
    for (const watchers of all) for (const onRevoked of watchers) onRevoked();
  }
}
