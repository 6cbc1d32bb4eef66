/** The console's shell: header and navigation, the language toggle, sign-in and sign-out, and the current page. */

import { useCallback, useMemo, useState } from "react";
import { ApiClient } from "./api/api-client.js";
import { ApiContext, type ApiSession } from "./api/api-context.js";
import { clearSessionKey, readSessionKey, storeSessionKey } from "./api/session-key.js";
import { useLanguage } from "./i18n/language.js";
import { ExecutorsPage } from "./pages/executors/executors-page.js";
import { NotFoundPage } from "./pages/not-found-page.js";
import { RunPage } from "./pages/runs/run-page.js";
import { RunsPage } from "./pages/runs/runs-page.js";
import { SchemaPage } from "./pages/schema/schema-page.js";
import { SignInPage } from "./pages/sign-in-page.js";
import { Link, pageOf, usePathname } from "./router.js";

/** The console. */
export function App() {
  const { language, t, toggle } = useLanguage();
  const [key, setKey] = useState<string | null>(readSessionKey);
  const signOut = useCallback(() => {
    clearSessionKey();
    setKey(null);
  }, []);
  const session = useMemo<ApiSession | undefined>(
    () => (key === null ? undefined : { client: new ApiClient(key, signOut), signOut }),
    [key, signOut],
  );
  const page = pageOf(usePathname());
  const nav = [
    { to: "/schema", label: t("nav.schema"), current: page.name === "schema" },
    { to: "/runs", label: t("nav.runs"), current: page.name === "runs" || page.name === "run" },
    { to: "/executors", label: t("nav.executors"), current: page.name === "executors" },
  ];
  return (
    <>
      <a className="skip" href="#main">
        {t("app.skip")}
      </a>
      <header className="top">
        <span className="brand">{t("app.title")}</span>
        {session !== undefined && (
          <nav aria-label="toolhost">
            {nav.map((item) => (
              <Link key={item.to} to={item.to} current={item.current}>
                {item.label}
              </Link>
            ))}
          </nav>
        )}
        <span className="spacer" />
        {/* Named by its visible text (in the language it switches to); the title says what it does. */}
        <button
          type="button"
          className="secondary"
          onClick={toggle}
          lang={language === "zh" ? "en" : "zh-CN"}
          title={t("language.label")}
        >
          {t("language.toggle")}
        </button>
        {session !== undefined && (
          <button type="button" className="secondary" onClick={signOut}>
            {t("nav.signOut")}
          </button>
        )}
      </header>
      <main id="main" tabIndex={-1}>
        {session === undefined ? (
          <SignInPage
            onSignedIn={(checked) => {
              storeSessionKey(checked);
              setKey(checked);
            }}
          />
        ) : (
          <ApiContext.Provider value={session}>
            {page.name === "schema" && <SchemaPage />}
            {page.name === "runs" && <RunsPage />}
            {page.name === "unknown" && <NotFoundPage />}
            {page.name === "run" && <RunPage runId={page.runId} />}
            {page.name === "executors" && <ExecutorsPage />}
          </ApiContext.Provider>
        )}
      </main>
    </>
  );
}
