/** Which console language a browser asks for (pure, so the tests need no DOM). */

import type { Language } from "./messages.js";

/** The browser's language: Chinese when its first preference is any `zh*`, English otherwise. */
export function browserLanguage(preferences: readonly string[]): Language {
  return preferences[0]?.toLowerCase().startsWith("zh") === true ? "zh" : "en";
}
