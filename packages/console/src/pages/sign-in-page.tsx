/**
 * Sign-in by pasting an API key. The form never submits natively (so the key never lands in a URL);
 * the key is checked against the server, then kept in sessionStorage.
 */

import { type FormEvent, useId, useState } from "react";
import { ApiClient } from "../api/api-client.js";
import { ApiError } from "../api/api-error.js";
import { useText } from "../i18n/language.js";

/** The page; `onSignedIn` gets the checked key. */
export function SignInPage({ onSignedIn }: { onSignedIn: (key: string) => void }) {
  const t = useText();
  const id = useId();
  const [key, setKey] = useState("");
  const [checking, setChecking] = useState(false);
  const [refusal, setRefusal] = useState<string | undefined>(undefined);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const candidate = key.trim();
    if (candidate === "" || checking) return;
    setChecking(true);
    setRefusal(undefined);
    try {
      await new ApiClient(candidate).verify();
      setKey("");
      onSignedIn(candidate);
    } catch (error) {
      setRefusal(t("signIn.refused", { message: error instanceof ApiError ? error.code : (error as Error).message }));
    } finally {
      setChecking(false);
    }
  };

  return (
    <section className="sign-in" aria-labelledby="sign-in-title">
      <h1 id="sign-in-title">{t("signIn.title")}</h1>
      <p>{t("signIn.intro")}</p>
      <form onSubmit={submit} method="post" action="#">
        <label htmlFor={id}>{t("signIn.key")}</label>
        <input
          id={id}
          type="password"
          autoComplete="off"
          spellCheck={false}
          value={key}
          onChange={(event) => setKey(event.target.value)}
          aria-invalid={refusal !== undefined}
          aria-describedby={refusal !== undefined ? `${id}-refusal` : undefined}
          required
        />
        <button type="submit" disabled={checking}>
          {checking ? t("signIn.checking") : t("signIn.submit")}
        </button>
        {refusal !== undefined && (
          <p className="error" role="alert" id={`${id}-refusal`}>
            {refusal}
          </p>
        )}
      </form>
      <p className="muted small">{t("signIn.hint")}</p>
    </section>
  );
}
