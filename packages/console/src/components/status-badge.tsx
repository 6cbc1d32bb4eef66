/** A run, call or check status as a coloured badge (the word itself stays visible: colour is not the only cue). */

const TONES: Record<string, string> = {
  completed: "good",
  ok: "good",
  online: "good",
  failed: "bad",
  expired: "bad",
  reconciliation_required: "bad",
  failing: "bad",
  offline: "muted",
  cancelled: "muted",
  pending: "wait",
  claimed: "wait",
  accepted: "wait",
  queued: "wait",
  running: "wait",
  waiting_for_tools: "wait",
};

/** `status` in a badge; `label` replaces the shown text (e.g. a translation) while the tone follows `status`. */
export function StatusBadge({ status, label }: { status: string; label?: string }) {
  return <span className={`badge badge-${TONES[status] ?? "muted"}`}>{label ?? status}</span>;
}
