/**
 * The byte-budget bar of a context preview: the original result's size against the tool's budget,
 * and what the model keeps. The scale is the larger of original and budget, so a result over budget
 * overflows the budget mark visibly.
 */

import { useText } from "../i18n/language.js";

/** Sizes of one projected result, in bytes of compact UTF-8 JSON. */
export interface BudgetBytes {
  readonly originalBytes: number;
  readonly retainedBytes: number;
  readonly budgetBytes: number;
}

/** Percentage of `part` in `whole` (0 when `whole` is 0). */
function percent(part: number, whole: number): string {
  return `${whole === 0 ? 0 : Math.min(100, (part / whole) * 100)}%`;
}

/** The bar, with a text legend that says the same for readers who do not see it. */
export function ByteBudgetBar({ originalBytes, retainedBytes, budgetBytes }: BudgetBytes) {
  const t = useText();
  const scale = Math.max(originalBytes, budgetBytes, 1);
  const numbers = {
    original: originalBytes.toLocaleString("en-US"),
    retained: retainedBytes.toLocaleString("en-US"),
    budget: budgetBytes.toLocaleString("en-US"),
  };
  return (
    <figure className="budget">
      <div className="budget-bar" role="img" aria-label={t("preview.bar", numbers)} data-testid="budget-bar">
        <div className="budget-original" style={{ width: percent(originalBytes, scale) }} />
        <div className="budget-retained" style={{ width: percent(retainedBytes, scale) }} />
        <div className="budget-mark" style={{ left: percent(budgetBytes, scale) }} />
      </div>
      <figcaption className="budget-legend">
        <span>
          <i className="swatch swatch-original" /> {t("preview.original")} <b>{numbers.original}</b>
        </span>
        <span>
          <i className="swatch swatch-retained" /> {t("preview.retained")} <b>{numbers.retained}</b>
        </span>
        <span>
          <i className="swatch swatch-budget" /> {t("preview.budget")} <b>{numbers.budget}</b>
        </span>
      </figcaption>
    </figure>
  );
}
