/** A point in time shown in the reader's locale, the exact ISO text on hover and for machines. */

import { useLanguage } from "../i18n/language.js";

/** `iso` as a `<time>` element; "—" when absent. */
export function TimeText({ iso }: { iso: string | null | undefined }) {
  const { language } = useLanguage();
  if (iso === null || iso === undefined) return <span>—</span>;
  const date = new Date(iso);
  const shown = date.toLocaleString(language === "zh" ? "zh-CN" : "en-GB", {
    dateStyle: "short",
    timeStyle: "medium",
  });
  const millis = String(date.getMilliseconds()).padStart(3, "0");
  return (
    <time dateTime={iso} title={iso}>
      {shown}.{millis}
    </time>
  );
}
