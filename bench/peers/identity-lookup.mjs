/**
 * What authenticating one request costs the server: `authenticate()` (the bearer header, the key's
 * SHA-256, the lookup) called in a loop on one storage, without the identity cache (every call reads
 * the key from the database, as before the cache) and with it (every call but the first is a hit).
 * Sequential awaits, so each figure is one request's latency in the server's event loop.
 */

import { randomBytes } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

const SERVER_DIST = new URL("../../packages/server/dist/", import.meta.url);

/**
 * Measures both ways on `databaseUrl` (a fresh SQLite file when undefined).
 * @returns {Promise<{ uncachedUs: number, cachedUs: number, calls: number }>}
 */
export async function measureIdentityLookup({ databaseUrl, calls }) {
  const { openStorage } = await import(new URL("storage/index.js", SERVER_DIST).href);
  const { authenticate } = await import(new URL("auth/authenticate.js", SERVER_DIST).href);
  const { IdentityCache } = await import(new URL("auth/identity-cache.js", SERVER_DIST).href);
  const { ensureBootstrapKey } = await import(new URL("auth/bootstrap-key.js", SERVER_DIST).href);
  const dir = mkdtempSync(join(tmpdir(), "toolhost-bench-identity-"));
  const storage = await openStorage(databaseUrl ?? `sqlite:${join(dir, "bench.db")}`, { migrate: true });
  try {
    const secret = `bench-${randomBytes(16).toString("hex")}`;
    await ensureBootstrapKey(storage, secret, { nowMs: () => Date.now() });
    const header = `Bearer ${secret}`;
    const perCall = async (cache) => {
      for (let i = 0; i < Math.min(200, calls); i++) await authenticate(header, storage.keys, cache);
      const t0 = performance.now();
      for (let i = 0; i < calls; i++) await authenticate(header, storage.keys, cache);
      return ((performance.now() - t0) * 1000) / calls;
    };
    const uncachedUs = await perCall(undefined);
    const cachedUs = await perCall(new IdentityCache(60_000, { nowMs: () => Date.now() }));
    return { uncachedUs, cachedUs, calls };
  } finally {
    await storage.close();
    rmSync(dir, { recursive: true, force: true });
  }
}
