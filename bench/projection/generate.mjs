/**
 * Deterministic, realistic tool results for the projection benchmark: a paged API response of task
 * objects, written directly as JSON TEXT so that it holds what real senders send and `JSON.parse`
 * would normalise away: Chinese and emoji (raw and as surrogate-pair escapes), `\n \" \\ \u00e9 \/`
 * escapes, control-character escapes, floats in every spelling (`1.50`, `1.5e-7`, `1E5`, `-0.0`),
 * integers beyond 2^53, and a mix of compact, spaced, pretty and CRLF/tab whitespace.
 * A seeded PRNG (mulberry32) makes the same size give the same text on every run.
 */

/** A seeded PRNG returning floats in [0, 1) (mulberry32). */
export function createRandom(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const CHINESE = [
  "任务",
  "订单同步",
  "客户反馈",
  "支付成功",
  "退款处理中",
  "库存不足，请稍后重试",
  "北京仓",
  "上海分公司",
  "发票已开具",
  "物流跟踪",
  "审批流程",
  "数据迁移完成",
  "用户权限变更",
  "紧急",
  "每周例会纪要",
];
const EMOJI = ["😀", "🚀", "✅", "📦", "🔥", "👍🏽", "🇨🇳", "❤️", "👩‍💻", "⚠️"];
const ENGLISH = ["sync", "invoice", "shipment", "retry", "customer", "refund", "pending", "review", "export", "queue"];
/** Fragments as they appear in the JSON text (escapes already written). */
const ESCAPED = [
  String.raw`line one\nline two`,
  String.raw`she said \"ok\"`,
  String.raw`C:\\Users\\dev\\report.csv`,
  String.raw`caf\u00e9 cr\u00e8me`,
  String.raw`smile \ud83d\ude00 rocket \uD83D\uDE80`,
  String.raw`col\tcol`,
  String.raw`https:\/\/example.com\/tasks`,
  String.raw`bell\u0007 and \u001f`,
  String.raw`para\u2028sep`,
  String.raw`\u4e2d\u6587`,
];
const STATUSES = ["open", "in_progress", "blocked", "done", "cancelled"];
const STYLES = ["compact", "compact", "spaced", "pretty", "crlf"];

/** Builds the text of one object in a whitespace style; `members` are `[key, valueText]`. */
function objectText(members, style, depth) {
  switch (style) {
    case "spaced":
      return `{ ${members.map(([k, v]) => `"${k}": ${v}`).join(", ")} }`;
    case "pretty": {
      const pad = "  ".repeat(depth + 1);
      return `{\n${members.map(([k, v]) => `${pad}"${k}": ${v}`).join(",\n")}\n${"  ".repeat(depth)}}`;
    }
    case "crlf":
      return `{\r\n${members.map(([k, v]) => `\t"${k}" :\t${v}`).join(" ,\r\n")}\r\n}`;
    default:
      return `{${members.map(([k, v]) => `"${k}":${v}`).join(",")}}`;
  }
}

function arrayText(items, style) {
  return style === "compact" ? `[${items.join(",")}]` : `[ ${items.join(", ")} ]`;
}

/** Writes one item (a task) as JSON text. */
function itemText(random, index, depth) {
  const pick = (list) => list[Math.floor(random() * list.length)];
  const int = (n) => Math.floor(random() * n);
  const digits = (n) => Array.from({ length: n }, () => int(10)).join("");
  const style = pick(STYLES);
  const inner = pick(STYLES);
  const words = (count) => {
    const out = [];
    for (let i = 0; i < count; i++) {
      const r = random();
      out.push(r < 0.4 ? pick(CHINESE) : r < 0.55 ? pick(EMOJI) : r < 0.8 ? pick(ENGLISH) : pick(ESCAPED));
    }
    return out.join(" ");
  };
  const float = () => {
    switch (int(8)) {
      case 0:
        return `${int(100000)}.${digits(1 + int(4))}`;
      case 1:
        return `${1 + int(9)}.${digits(1 + int(3))}e-${1 + int(12)}`;
      case 2:
        return `${1 + int(9)}.${int(10)}E+${16 + int(20)}`;
      case 3:
        return pick(["-0.0", "0.0", "1E5", "1e16", "100.0", "2.50", "-1.25e-5"]);
      case 4:
        return String(random() * 1000 - 500);
      default:
        return `${int(10000)}.${digits(2)}`;
    }
  };
  const bigInteger = () => `${random() < 0.2 ? "-" : ""}${1 + int(9)}${digits(18 + int(8))}`;
  const id = `task_${index.toString(36).padStart(6, "0")}${digits(4)}`;
  const owner = objectText(
    [
      ["id", `"user_${digits(8)}"`],
      ["name", `"${pick(["张伟", "王芳", "李娜", "Zoë Ōtani", "José Müller"])}"`],
      ["email", `"u${digits(5)}@example.com"`],
      ["verified", random() < 0.5 ? "true" : "false"],
    ],
    inner,
    depth + 1,
  );
  const metrics = objectText(
    [
      ["views", String(int(100000))],
      ["score", float()],
      ["delta", float()],
      ["scale", float()],
      ["balance", bigInteger()],
      ["previous", random() < 0.3 ? "null" : String(-int(1000))],
    ],
    inner,
    depth + 1,
  );
  const tags = arrayText(
    Array.from({ length: 1 + int(4) }, () => `"${random() < 0.5 ? pick(CHINESE) : pick(ENGLISH)}"`),
    inner,
  );
  return objectText(
    [
      ["id", `"${id}"`],
      ["title", `"${pick(CHINESE)} ${pick(EMOJI)} ${words(2 + int(4))}"`],
      ["description", `"${words(6 + int(18))}"`],
      ["status", `"${pick(STATUSES)}"`],
      ["priority", String(int(5))],
      ["amount", float()],
      ["ratio", float()],
      ["big", bigInteger()],
      [
        "created_at",
        `"2024-${String(1 + int(12)).padStart(2, "0")}-${String(1 + int(28)).padStart(2, "0")}T08:09:10.${digits(3)}Z"`,
      ],
      ["archived", random() < 0.1 ? "true" : "false"],
      ["tags", tags],
      ["owner", owner],
      ["metrics", metrics],
    ],
    style,
    depth,
  );
}

/**
 * A paged API response of exactly `targetBytes` UTF-8 bytes (items up to the size, then a padding
 * note in `meta`), the same for the same size and seed.
 * @returns {{ text: string, bytes: number, items: number }}
 */
export function generateResult(targetBytes, seed = 20240501) {
  const random = createRandom(seed ^ targetBytes);
  const head = '{\n  "data": {\n    "items": [\n      ';
  const tail = (items, pad) =>
    `\n    ],\n    "total": ${items},\n    "page_size": ${items}\n  },\n  "next_cursor": "cur_${items.toString(36)}_eyJwYWdlIjoyfQ==",\n  "has_more": true,\n  "meta": {"request_id": "req_${seed.toString(16)}", "note": "${pad}"}\n}\n`;
  const tailReserve = Buffer.byteLength(tail(1e9, "")) + 64;
  const parts = [];
  let bytes = Buffer.byteLength(head);
  for (;;) {
    const item = itemText(random, parts.length, 3);
    const itemBytes = Buffer.byteLength(item) + (parts.length > 0 ? 8 : 0); // ",\n      "
    if (bytes + itemBytes + tailReserve > targetBytes) break;
    parts.push(item);
    bytes += itemBytes;
  }
  const body = head + parts.join(",\n      ");
  const padBytes = targetBytes - Buffer.byteLength(body) - Buffer.byteLength(tail(parts.length, ""));
  const text = body + tail(parts.length, padding(padBytes));
  return { text, bytes: Buffer.byteLength(text), items: parts.length };
}

/** Filler of exactly `bytes` UTF-8 bytes (Chinese, then ASCII for the remainder). */
function padding(bytes) {
  const chinese = "备注";
  const pairs = Math.max(0, Math.floor((bytes - 3) / 6));
  return chinese.repeat(pairs) + ".".repeat(Math.max(0, bytes - pairs * 6));
}
