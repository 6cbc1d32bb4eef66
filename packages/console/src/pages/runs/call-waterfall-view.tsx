/** The run's calls as a waterfall of CSS bars on the run's time axis, each with its timestamps and durations in text. */

import type { Run, ToolCall } from "@toolhost/protocol/wire";
import { StatusBadge } from "../../components/status-badge.js";
import { TimeText } from "../../components/time-text.js";
import { useText } from "../../i18n/language.js";
import { durationText, waterfallOf } from "./call-waterfall.js";

/** The waterfall (nothing when the run made no call). */
export function CallWaterfallView({ run, calls }: { run: Run; calls: readonly ToolCall[] }) {
  const t = useText();
  if (calls.length === 0) return null;
  const waterfall = waterfallOf(run, calls, Date.now());
  const byId = new Map(calls.map((call) => [call.call_id, call]));
  return (
    <div data-testid="waterfall">
      <p className="muted small">
        {t("waterfall.axis", { span: durationText(waterfall.spanMs) })} <TimeText iso={run.created_at} />
      </p>
      <ol className="waterfall">
        {waterfall.rows.map((row) => {
          const call = byId.get(row.callId);
          return (
            <li key={row.callId} data-testid="waterfall-row">
              <span className="waterfall-label">
                <code>{row.toolName}</code> <StatusBadge status={row.status} />
              </span>
              <span className="waterfall-track" aria-hidden="true">
                {row.parts.map((part) => (
                  <span
                    key={part.phase}
                    className={`waterfall-bar phase-${part.phase}`}
                    style={{ left: `${part.left}%`, width: `max(${part.width}%, 2px)` }}
                    title={`${t(`waterfall.${part.phase}`)}: ${durationText(part.ms)}`}
                  />
                ))}
              </span>
              <span className="small" data-testid="waterfall-text">
                {row.open ? t("waterfall.openFor", { total: durationText(row.totalMs) }) : durationText(row.totalMs)} (
                {row.parts.map((part) => `${t(`waterfall.${part.phase}`)} ${durationText(part.ms)}`).join(", ")}) ·{" "}
                <TimeText iso={call?.created_at} /> → <TimeText iso={call?.settled_at} />
              </span>
            </li>
          );
        })}
      </ol>
      <p className="legend muted small" aria-hidden="true">
        <span className="swatch phase-waiting" /> {t("waterfall.waiting")} <span className="swatch phase-claimed" />{" "}
        {t("waterfall.claimed")} <span className="swatch phase-running" /> {t("waterfall.running")}
      </p>
    </div>
  );
}
