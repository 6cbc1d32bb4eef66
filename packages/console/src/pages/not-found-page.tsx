/** The console's page for a path it does not have (the server answers it with index.html and 404). */

import { useText } from "../i18n/language.js";
import { Link } from "../router.js";

/** Says the page does not exist and links to the runs. */
export function NotFoundPage() {
  const t = useText();
  return (
    <section aria-labelledby="not-found-title">
      <h1 id="not-found-title">{t("notFound.title")}</h1>
      <p>{t("notFound.body", { path: window.location.pathname })}</p>
      <p>
        <Link to="/runs">{t("notFound.back")}</Link>
      </p>
    </section>
  );
}
