/** An API failure shown to people: a refused scope says so; anything else shows code and message. */

import { ApiError } from "../api/api-error.js";
import { useText } from "../i18n/language.js";

/** The message of `error`, in a live region so screen readers hear it. */
export function ApiErrorView({ error }: { error: Error | undefined }) {
  const t = useText();
  if (error === undefined) return null;
  const text =
    error instanceof ApiError && error.status === 403
      ? t("common.forbidden", { message: error.message })
      : t("common.error", { message: error instanceof ApiError ? `${error.code}: ${error.message}` : error.message });
  return (
    <p className="error" role="alert">
      {text}
    </p>
  );
}
