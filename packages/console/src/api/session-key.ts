/**
 * The API key the console signs in with, kept in sessionStorage only: it lives as long as the tab,
 * never enters a URL, the history or a log line, and is sent only as an Authorization header.
 */

const STORAGE_NAME = "toolhost.console.key";

/** The key of this tab's session, if signed in. */
export function readSessionKey(): string | null {
  try {
    return window.sessionStorage.getItem(STORAGE_NAME);
  } catch {
    return null;
  }
}

/** Keeps `key` for this tab's session. */
export function storeSessionKey(key: string): void {
  window.sessionStorage.setItem(STORAGE_NAME, key);
}

/** Forgets the key (sign out, or the server refused it). */
export function clearSessionKey(): void {
  window.sessionStorage.removeItem(STORAGE_NAME);
}
