/**
 * The UI language: the one chosen with the toggle (remembered in localStorage: a preference, not a
 * secret), else the browser's (`navigator.languages`: Chinese for any `zh*`, English otherwise).
 * `useText()` answers the translate function for the current language.
 */

import { createContext, type ReactNode, useCallback, useContext, useEffect, useMemo, useState } from "react";
import { browserLanguage } from "./browser-language.js";
import { format, type Language, MESSAGES, type Translate } from "./messages.js";

const STORAGE_NAME = "toolhost.console.language";

export type { Translate } from "./messages.js";

interface LanguageState {
  readonly language: Language;
  readonly toggle: () => void;
  readonly t: Translate;
}

const LanguageContext = createContext<LanguageState | undefined>(undefined);

function initialLanguage(): Language {
  try {
    const chosen = window.localStorage.getItem(STORAGE_NAME);
    if (chosen === "zh" || chosen === "en") return chosen;
  } catch {
    // Private mode: no remembered choice.
  }
  const preferences = navigator.languages?.length ? navigator.languages : [navigator.language ?? ""];
  return browserLanguage(preferences);
}

/** Provides the language to the console. */
export function LanguageProvider({ children }: { children: ReactNode }) {
  const [language, setLanguage] = useState<Language>(initialLanguage);
  useEffect(() => {
    document.documentElement.lang = language === "zh" ? "zh-CN" : "en";
  }, [language]);
  // Only a choice is remembered: the browser's language is followed until the toggle is used.
  const toggle = useCallback(
    () =>
      setLanguage((current) => {
        const next = current === "zh" ? "en" : "zh";
        try {
          window.localStorage.setItem(STORAGE_NAME, next);
        } catch {
          // Private mode: the choice lasts for this page only.
        }
        return next;
      }),
    [],
  );
  const state = useMemo<LanguageState>(
    () => ({ language, toggle, t: (key, values) => format(MESSAGES[language][key], values) }),
    [language, toggle],
  );
  return <LanguageContext.Provider value={state}>{children}</LanguageContext.Provider>;
}

/** The current language and its toggle. */
export function useLanguage(): LanguageState {
  const state = useContext(LanguageContext);
  if (state === undefined) throw new Error("useLanguage outside LanguageProvider");
  return state;
}

/** The translate function of the current language. */
export function useText(): Translate {
  return useLanguage().t;
}
