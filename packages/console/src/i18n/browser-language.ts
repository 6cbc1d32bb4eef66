/** The browser's language as the console reads it (pure, so the tests type-check it without the DOM). */

import type { Language } from "./messages.js";

/** The browser's language: Chinese when its first preference is any `zh*`, English otherwise. */
export function browserLanguage(preferences: readonly string[]): Language {
  return preferences[0]?.toLowerCase().startsWith("zh") === true ? "zh" : "en";
}
