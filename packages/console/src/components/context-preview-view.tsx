/**
 * A context preview as people read it: the byte-budget bar, the truncated flag, and the projected
 * result — a cut JSON result with its notice, `preserved_fields`, `head` and `tail` set apart.
 */

import type { ContextPreview } from "@toolhost/protocol/wire";
import { useText } from "../i18n/language.js";
import { ByteBudgetBar } from "./byte-budget-bar.js";
import { JsonText, ScrollText } from "./json-text.js";
import { StatusBadge } from "./status-badge.js";

/** The shape the projection gives a JSON result cut to its budget. */
interface CutJson {
  readonly truncation: { readonly original_bytes?: number; readonly omitted_bytes?: number; readonly notice?: string };
  readonly preserved_fields?: Record<string, unknown>;
  readonly preview: { readonly head: string; readonly tail: string };
}

function cutJsonOf(result: unknown): CutJson | undefined {
  if (typeof result !== "object" || result === null) return undefined;
  const candidate = result as Partial<CutJson>;
  const preview = candidate.preview;
  if (typeof candidate.truncation !== "object" || candidate.truncation === null) return undefined;
  if (typeof preview !== "object" || preview === null) return undefined;
  if (typeof preview.head !== "string" || typeof preview.tail !== "string") return undefined;
  return candidate as CutJson;
}

/** The preview; `headingLevel` fits it into the page's outline. */
export function ContextPreviewView({ preview, headingLevel = 3 }: { preview: ContextPreview; headingLevel?: 3 | 4 }) {
  const t = useText();
  const H = `h${headingLevel}` as "h3";
  const Sub = `h${headingLevel + 1}` as "h4";
  const cut = preview.truncated ? cutJsonOf(preview.result) : undefined;
  return (
    <div className="preview" data-testid="context-preview">
      <H>
        {t("preview.title")}{" "}
        <StatusBadge
          status={preview.truncated ? "failing" : "ok"}
          label={preview.truncated ? t("preview.truncated") : t("preview.fits")}
        />
      </H>
      <ByteBudgetBar
        originalBytes={preview.original_bytes}
        retainedBytes={preview.retained_bytes}
        budgetBytes={preview.max_result_context_bytes}
      />
      {cut === undefined ? (
        <>
          <Sub>{t("preview.result")}</Sub>
          <JsonText value={preview.result} />
        </>
      ) : (
        <>
          {cut.truncation.notice !== undefined && (
            <p className="notice">
              <b>{t("preview.notice")}:</b> {cut.truncation.notice}
            </p>
          )}
          <Sub>{t("preview.preserved")}</Sub>
          {cut.preserved_fields === undefined || Object.keys(cut.preserved_fields).length === 0 ? (
            <p className="muted">{t("common.none")}</p>
          ) : (
            <table className="preserved" data-testid="preserved-fields">
              <tbody>
                {Object.entries(cut.preserved_fields).map(([path, value]) => (
                  <tr key={path}>
                    <th scope="row">
                      <code>{path}</code>
                    </th>
                    <td>
                      <code>{JSON.stringify(value)}</code>
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          )}
          <Sub>{t("preview.head")}</Sub>
          <ScrollText className="cut-head" testId="preview-head">
            {cut.preview.head}
          </ScrollText>
          <p className="omitted">
            {t("preview.omitted", { bytes: (cut.truncation.omitted_bytes ?? 0).toLocaleString("en-US") })}
          </p>
          <Sub>{t("preview.tail")}</Sub>
          <ScrollText className="cut-tail" testId="preview-tail">
            {cut.preview.tail}
          </ScrollText>
        </>
      )}
    </div>
  );
}
