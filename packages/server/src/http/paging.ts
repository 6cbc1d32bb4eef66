/** Between the wire's list envelope (`{data, next_cursor}`, query `limit`/`cursor`) and storage pages. */

import { PAGE_LIMIT_DEFAULT, type PageQuery } from "@toolhost/protocol/wire";
import type { Page, PageRequest } from "../storage/records.js";

/** The storage request for a validated list query (`limit` defaults to 50). */
export function pageRequestOf(query: PageQuery): PageRequest {
  return { limit: query.limit ?? PAGE_LIMIT_DEFAULT, cursor: query.cursor ?? null };
}

/** The wire envelope of a storage page, each item mapped to its wire shape. */
export function wirePage<Record, Item>(
  page: Page<Record>,
  toWire: (record: Record) => Item,
): { data: Item[]; next_cursor: string | null } {
  return { data: page.items.map(toWire), next_cursor: page.next_cursor };
}
