/**
 * The UI language: Chinese first, switchable, remembered in localStorage (a preference, not a
 * secret). `useText()` answers the translate function for the current language.
 */

import { createContext, type ReactNode, useCallback, useContext, useEffect, useMemo, useState } from "react";
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
    return window.localStorage.getItem(STORAGE_NAME) === "en" ? "en" : "zh";
  } catch {
    return "zh";
  }
}

/** Provides the language to the console. */
export function LanguageProvider({ children }: { children: ReactNode }) {
  const [language, setLanguage] = useState<Language>(initialLanguage);
  useEffect(() => {
    document.documentElement.lang = language === "zh" ? "zh-CN" : "en";
    try {
      window.localStorage.setItem(STORAGE_NAME, language);
    } catch {
      // Private mode: the choice lasts for this page only.
    }
  }, [language]);
  const toggle = useCallback(() => setLanguage((current) => (current === "zh" ? "en" : "zh")), []);
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
