// The identity cache on its own: entries expire after the TTL, a revoked key is forgotten at once, an
// answer read before a revocation is never stored after it, a suspended cache stores nothing, and the
// number of entries is bounded.
import { describe, expect, it } from "vitest";
import type { Identity } from "../../src/auth/identity.js";
import { IdentityCache } from "../../src/auth/identity-cache.js";

class PinnedClock {
  now = 1_000_000;
  nowMs(): number {
    return this.now;
  }
}

const identity = (keyId: string): Identity => ({
  keyId,
  name: keyId,
  scopes: ["admin"],
  agents: "*",
  bindings: "*",
  connections: "*",
});

describe("identity cache", () => {
  it("answers a stored identity until its TTL runs out", () => {
    const clock = new PinnedClock();
    const cache = new IdentityCache(500, clock);
    expect(cache.find("h1")).toBeUndefined();
    cache.store("h1", identity("k1"), cache.ticket());
    expect(cache.find("h1")?.keyId).toBe("k1");
    clock.now += 499;
    expect(cache.find("h1")?.keyId).toBe("k1");
    clock.now += 1;
    expect(cache.find("h1")).toBeUndefined();
    expect(cache.size).toBe(0);
  });

  it("a TTL of 0 caches nothing", () => {
    const cache = new IdentityCache(0, new PinnedClock());
    cache.store("h1", identity("k1"), cache.ticket());
    expect(cache.find("h1")).toBeUndefined();
  });

  it("forgets every entry of a revoked key at once, and only those", () => {
    const cache = new IdentityCache(60_000, new PinnedClock());
    cache.store("h1", identity("k1"), cache.ticket());
    cache.store("h2", identity("k2"), cache.ticket());
    cache.forgetKey("k1");
    expect(cache.find("h1")).toBeUndefined();
    expect(cache.find("h2")?.keyId).toBe("k2");
  });

  it("does not store an answer read before a revocation came in", () => {
    const cache = new IdentityCache(60_000, new PinnedClock());
    const ticket = cache.ticket();
    // The database answered the key as active, but meanwhile it was revoked.
    cache.forgetKey("k1");
    cache.store("h1", identity("k1"), ticket);
    expect(cache.find("h1")).toBeUndefined();
    cache.store("h1", identity("k1"), cache.ticket());
    expect(cache.find("h1")?.keyId).toBe("k1");
  });

  it("stores nothing while suspended, and starts empty when resumed", () => {
    const cache = new IdentityCache(60_000, new PinnedClock());
    cache.store("h1", identity("k1"), cache.ticket());
    const before = cache.ticket();
    cache.suspend();
    expect(cache.find("h1")).toBeUndefined();
    cache.store("h2", identity("k2"), cache.ticket());
    expect(cache.find("h2")).toBeUndefined();
    cache.resume();
    // A lookup that began before the outage must not fill the resumed cache.
    cache.store("h3", identity("k3"), before);
    expect(cache.find("h3")).toBeUndefined();
    cache.store("h2", identity("k2"), cache.ticket());
    expect(cache.find("h2")?.keyId).toBe("k2");
  });

  it("holds at most its maximum of entries, dropping the oldest", () => {
    const cache = new IdentityCache(60_000, new PinnedClock(), 3);
    for (const n of [1, 2, 3, 4]) cache.store(`h${n}`, identity(`k${n}`), cache.ticket());
    expect(cache.size).toBe(3);
    expect(cache.find("h1")).toBeUndefined();
    expect(cache.find("h4")?.keyId).toBe("k4");
  });
});
