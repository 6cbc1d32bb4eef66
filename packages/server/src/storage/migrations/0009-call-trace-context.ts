/**
 * 0009_call_trace_context: the trace context a tool call was created in (the `traceparent` of its
 * `toolhost.tool_call` span, a child of the run turn that planned it; see docs/operations.md#traces),
 * kept on the call's row so the spans of its claim and receipts link to the run's trace after a
 * restart and on any server instance. One nullable column on `tool_calls`: NULL for calls from before
 * this migration and for calls created with no valid trace context. Never part of a digest or of an
 * idempotency comparison. Additive; the same on both dialects.
 */

import type { Kysely, Migration } from "kysely";

/** The 0009_call_trace_context migration. */
export const callTraceContextMigration: Migration = {
  async up(db: Kysely<unknown>): Promise<void> {
    await db.schema.alterTable("tool_calls").addColumn("trace_context", "text").execute();
  },

  async down(db: Kysely<unknown>): Promise<void> {
    await db.schema.alterTable("tool_calls").dropColumn("trace_context").execute();
  },
};
