/**
 * A run's model requests: a chart of estimated vs actual input tokens per request against the agent
 * version's `max_context_tokens`, compactions marked, and the same figures as a table (the chart's
 * accessible description).
 */

import type { ModelRequest } from "@toolhost/protocol/wire";
import { useId } from "react";
import { TimeText } from "../../components/time-text.js";
import { useText } from "../../i18n/language.js";
import { CHART, tokenChartOf } from "./token-chart.js";

const number = (value: number) => value.toLocaleString("en-US");

/** The least height of a bar, so a request far below a large window still shows. */
const MIN_BAR = 2;

/** The panel; `maxContextTokens` is undefined while the agent version is unknown (the chart then waits). */
export function ModelRequestsPanel({
  requests,
  maxContextTokens,
}: {
  requests: readonly ModelRequest[];
  maxContextTokens: number | undefined;
}) {
  const t = useText();
  const ids = { title: useId(), table: useId() };
  if (requests.length === 0) return <p>{t("model.none")}</p>;
  const chart = maxContextTokens === undefined ? undefined : tokenChartOf(requests, maxContextTokens);
  return (
    <div data-testid="model-requests">
      {chart !== undefined && maxContextTokens !== undefined && (
        <svg
          className="token-chart"
          viewBox={`0 0 ${CHART.width} ${CHART.height}`}
          role="img"
          aria-labelledby={ids.title}
          aria-describedby={ids.table}
          data-testid="token-chart"
        >
          <title id={ids.title}>
            {t("model.chartTitle", { count: requests.length, max: number(maxContextTokens) })}
          </title>
          <line className="axis" x1={CHART.left} x2={CHART.width - CHART.right} y1={chart.baseY} y2={chart.baseY} />
          <text className="tick" x={CHART.left - 6} y={chart.baseY} textAnchor="end">
            0
          </text>
          <line
            className="limit"
            x1={CHART.left}
            x2={CHART.width - CHART.right}
            y1={chart.limitY}
            y2={chart.limitY}
            data-testid="token-limit"
          />
          <text className="tick" x={CHART.left - 6} y={chart.limitY + 4} textAnchor="end">
            {number(maxContextTokens)}
          </text>
          {chart.bars.map((bar) => (
            <g key={bar.index} data-testid="token-bar" data-compacted={bar.compacted}>
              <rect
                className="estimated"
                x={bar.x}
                y={Math.min(bar.estimatedY, chart.baseY - MIN_BAR)}
                width={bar.width}
                height={Math.max(MIN_BAR, chart.baseY - bar.estimatedY)}
              />
              {bar.actualY !== null && (
                <rect
                  className="actual"
                  x={bar.x + bar.width / 4}
                  y={bar.actualY}
                  width={bar.width / 2}
                  height={chart.baseY - bar.actualY}
                />
              )}
              <text className="tick" x={bar.x + bar.width / 2} y={bar.estimatedY - 6} textAnchor="middle">
                {number(requests[bar.index]?.estimated_input_tokens ?? 0)}
              </text>
              {bar.compacted && (
                <text className="compacted" x={bar.x + bar.width / 2} y={bar.estimatedY - 20} textAnchor="middle">
                  ▼
                </text>
              )}
              <text className="tick" x={bar.x + bar.width / 2} y={chart.baseY + 16} textAnchor="middle">
                {bar.index + 1}
              </text>
            </g>
          ))}
        </svg>
      )}
      <p className="legend muted small" aria-hidden="true">
        <span className="swatch estimated" /> {t("model.estimated")} <span className="swatch actual" />{" "}
        {t("model.actual")} <span className="swatch limit" /> max_context_tokens <span className="compacted">▼</span>{" "}
        {t("model.compacted")}
      </p>
      <table className="list" id={ids.table} data-testid="model-requests-table">
        <caption>{t("model.tableCaption")}</caption>
        <thead>
          <tr>
            <th scope="col">#</th>
            <th scope="col">{t("model.purpose")}</th>
            <th scope="col">{t("model.estimated")}</th>
            <th scope="col">{t("model.actual")}</th>
            <th scope="col">{t("model.output")}</th>
            <th scope="col">{t("model.compacted")}</th>
            <th scope="col">{t("model.latency")}</th>
            <th scope="col">{t("runs.created")}</th>
          </tr>
        </thead>
        <tbody>
          {requests.map((request, index) => (
            <tr key={request.request_id}>
              <td>{index + 1}</td>
              <td>
                {request.purpose} · {t("model.turn", { turn: request.turn })}
                {request.error !== undefined && <code className="small"> {request.error.code}</code>}
              </td>
              <td>{number(request.estimated_input_tokens)}</td>
              <td>{request.actual_input_tokens === null ? "—" : number(request.actual_input_tokens)}</td>
              <td>{request.output_tokens === null ? "—" : number(request.output_tokens)}</td>
              <td>{request.compacted ? t("model.yes") : t("model.no")}</td>
              <td>{number(request.latency_ms)} ms</td>
              <td>
                <TimeText iso={request.created_at} />
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
