/**
 * The pure decision of migration 0002: rewriting the legacy result budget of stored tool lists.
 *
 * A tool (an object directly inside the top-level array of `tools_json`) that carries
 * `max_result_tokens` gets `"max_result_context_bytes":16384` in the place of that member (with the same
 * spacing around the colon). The text is edited, not re-serialised: everything else — other tools, other members, their order, number
 * lexemes, whitespace — stays byte for byte. In the rare tool that also holds duplicates of either key,
 * those other members are dropped so the tool ends with exactly one budget. Nested objects (such as an
 * input schema property that happens to be named `max_result_tokens`) are not tools and stay as
 * they are.
 */

import { parseJson } from "@toolhost/protocol";

/** The removed budget field. */
export const LEGACY_BUDGET_FIELD = "max_result_tokens";
/** The field that replaces it. */
export const BUDGET_FIELD = "max_result_context_bytes";
/** The budget every legacy tool gets. */
export const LEGACY_REPLACEMENT_BYTES = 16_384;

/** One `"key": value` member of an object, by offsets into the text. */
interface Member {
  key: string;
  /** Offset of the key's opening quote. */
  start: number;
  /** Offset just after the key's closing quote. */
  keyEnd: number;
  /** Offset of the value. */
  valueStart: number;
  /** Offset just after the value. */
  end: number;
}

/** An object element of the top-level array: the offsets of its braces and its members. */
interface ObjectSpan {
  open: number;
  close: number;
  members: Member[];
}

/** The rewritten text, or undefined when no tool carries the legacy field (nothing to change). */
export function rewriteLegacyBudgets(toolsJson: string): string | undefined {
  parseJson(toolsJson); // Throws on malformed text, so the scanner below may assume well-formed JSON.
  const scanner = new Scanner(toolsJson);
  const tools = scanner.topLevelObjects();
  let out = "";
  let copied = 0;
  for (const tool of tools) {
    const legacy = tool.members.filter((member) => member.key === LEGACY_BUDGET_FIELD);
    const first = legacy[0];
    if (first === undefined) continue;
    const clashing = tool.members.filter(
      (member) => member !== first && (member.key === BUDGET_FIELD || legacy.includes(member)),
    );
    // The new member keeps the old one's spacing around its colon.
    const replacement = `"${BUDGET_FIELD}"${toolsJson.slice(first.keyEnd, first.valueStart)}${LEGACY_REPLACEMENT_BYTES}`;
    if (clashing.length === 0) {
      out += toolsJson.slice(copied, first.start) + replacement;
      copied = first.end;
      continue;
    }
    // Rebuild this one object from its kept members, with the separator it already used.
    const kept = tool.members.filter((member) => !clashing.includes(member));
    const separator = separatorOf(toolsJson, tool.members);
    const body = kept.map((member) => (member === first ? replacement : toolsJson.slice(member.start, member.end)));
    const firstMember = tool.members[0] as Member;
    const lastMember = tool.members[tool.members.length - 1] as Member;
    out +=
      toolsJson.slice(copied, firstMember.start) +
      body.join(separator) +
      toolsJson.slice(lastMember.end, tool.close + 1);
    copied = tool.close + 1;
  }
  if (copied === 0) return undefined;
  return out + toolsJson.slice(copied);
}

/** The text between the first two members (`,` in compact JSON), or `,` for a single member. */
function separatorOf(text: string, members: Member[]): string {
  const [a, b] = members;
  return a === undefined || b === undefined ? "," : text.slice(a.end, b.start);
}

/** A minimal scanner over well-formed JSON that reports offsets (the protocol reader keeps none). */
class Scanner {
  pos = 0;

  constructor(readonly text: string) {}

  /** The object elements of the top-level array (none when the text is not an array). */
  topLevelObjects(): ObjectSpan[] {
    this.skipWhitespace();
    if (this.text[this.pos] !== "[") return [];
    this.pos++;
    const objects: ObjectSpan[] = [];
    for (;;) {
      this.skipWhitespace();
      const c = this.text[this.pos];
      if (c === "]") return objects;
      if (c === ",") {
        this.pos++;
        continue;
      }
      if (c === "{") objects.push(this.readObject());
      else this.skipValue();
    }
  }

  readObject(): ObjectSpan {
    const open = this.pos;
    this.pos++; // {
    const members: Member[] = [];
    for (;;) {
      this.skipWhitespace();
      const c = this.text[this.pos];
      if (c === "}") return { open, close: this.pos++, members };
      if (c === ",") {
        this.pos++;
        continue;
      }
      const start = this.pos;
      this.skipString();
      const keyEnd = this.pos;
      const key = JSON.parse(this.text.slice(start, keyEnd)) as string;
      this.skipWhitespace();
      this.pos++; // :
      this.skipWhitespace();
      const valueStart = this.pos;
      this.skipValue();
      members.push({ key, start, keyEnd, valueStart, end: this.pos });
    }
  }

  skipValue(): void {
    const c = this.text[this.pos];
    if (c === '"') this.skipString();
    else if (c === "{" || c === "[") this.skipContainer();
    else while (this.pos < this.text.length && !/[\s,\]}]/.test(this.text[this.pos] as string)) this.pos++;
  }

  skipContainer(): void {
    let depth = 0;
    do {
      const c = this.text[this.pos];
      if (c === '"') {
        this.skipString();
        continue;
      }
      if (c === "{" || c === "[") depth++;
      else if (c === "}" || c === "]") depth--;
      this.pos++;
    } while (depth > 0);
  }

  skipString(): void {
    this.pos++; // opening quote
    for (;;) {
      const c = this.text[this.pos];
      if (c === "\\") this.pos += 2;
      else if (c === '"') {
        this.pos++;
        return;
      } else this.pos++;
    }
  }

  skipWhitespace(): void {
    while (/[ \t\n\r]/.test(this.text[this.pos] ?? "")) this.pos++;
  }
}
