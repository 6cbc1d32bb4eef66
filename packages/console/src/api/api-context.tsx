/** The signed-in API client, shared by every page; signing out forgets the key. */

import { createContext, useContext } from "react";
import type { ApiClient } from "./api-client.js";

/** What pages get: the client and how to sign out. */
export interface ApiSession {
  readonly client: ApiClient;
  readonly signOut: () => void;
}

/** The session of the signed-in console (undefined before sign-in). */
export const ApiContext = createContext<ApiSession | undefined>(undefined);

/** The signed-in client; only pages behind the sign-in use it. */
export function useApi(): ApiClient {
  const session = useContext(ApiContext);
  if (session === undefined) throw new Error("useApi before sign-in");
  return session.client;
}
