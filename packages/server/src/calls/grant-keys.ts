/**
 * The grant key of one database, loaded (or created, once for every instance) on first use and kept
 * in memory: it never changes after it was stored. `startServer` makes that first use, before serving.
 */

import type { Clock } from "../clock.js";
import type { SecretStore } from "../storage/storage.js";
import { GRANT_KEY_NAME, grantKeyOf, newGrantKeyText } from "./grant.js";

const loaded = new WeakMap<SecretStore, Promise<Buffer>>();

/** The grant key stored through `secrets` (created when absent); cached per store. */
export function grantKey(secrets: SecretStore, clock: Clock): Promise<Buffer> {
  let key = loaded.get(secrets);
  if (key === undefined) {
    key = secrets.getOrCreate(GRANT_KEY_NAME, newGrantKeyText(), clock.nowMs()).then(grantKeyOf);
    // A failed load (storage down) is retried by the next request instead of being cached.
    key.catch(() => loaded.delete(secrets));
    loaded.set(secrets, key);
  }
  return key;
}
