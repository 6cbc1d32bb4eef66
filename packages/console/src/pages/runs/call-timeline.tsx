/**
 * One tool call's timeline: created, claimed by whom, accepted, progress, the final receipt, late
 * receipts (stored after the run ended, not applied), business cancel, settled — in time order,
 * from the call row and its stored receipts.
 */

import type { StoredReceipt, ToolCall } from "@toolhost/protocol/wire";
import { StatusBadge } from "../../components/status-badge.js";
import { TimeText } from "../../components/time-text.js";
import { useText } from "../../i18n/language.js";
import { CallActions } from "./call-actions.js";
import { timelineOf } from "./call-events.js";

/** The call's card. */
export function CallTimeline({
  call,
  receipts,
  done,
}: {
  call: ToolCall;
  receipts: readonly StoredReceipt[];
  done: () => void;
}) {
  const t = useText();
  const events = timelineOf(call, receipts, t);
  return (
    <li className="call" data-testid="call-timeline">
      <h3>
        <code>{call.tool_name}</code> <StatusBadge status={call.status} />{" "}
        <span className="muted small">
          {call.call_id}
          {call.binding_id !== undefined && ` · ${call.binding_id}`} · {call.effect}
        </span>
      </h3>
      <ol className="timeline">
        {events.map((event, index) => (
          // biome-ignore lint/suspicious/noArrayIndexKey: the events of a call are derived in a fixed order.
          <li key={index} className={event.tone === undefined ? undefined : `tone-${event.tone}`}>
            <TimeText iso={event.at} /> <span>{event.text}</span>
            {event.detail !== undefined && <span className="muted small"> {event.detail}</span>}
          </li>
        ))}
      </ol>
      <p className="muted small">
        {t("timeline.deadline")}: <TimeText iso={call.deadline} />
      </p>
      <CallActions call={call} done={done} />
    </li>
  );
}
