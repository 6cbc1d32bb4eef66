import { RE2JS } from "re2js";
const cases = [
  ["^[a-z0-9-]+$", "a".repeat(1e6)],
  ["^(a+)+$", "a".repeat(1e6) + "!"],
  ["^(?:[a-z]+\\d*){1,1000}$", "ab1".repeat(30000) + "!"],
  ["^(?:[a-z]+\\d*){1,100}$", "ab1".repeat(30000) + "!"],
  ["(?:a|b|c|d|e|f|g|h|i|j)*[0-9]{500}", "abcdefghij".repeat(10000)],
  ["[\\x{0}-\\x{10FFFF}]{0,1000}x", "é".repeat(100000)],
  ["(.*a){20}", "a".repeat(100000)],
  ["\\p{L}+\\p{N}{1,500}z", "ab1".repeat(30000)],
  ["(?:\\p{Greek}|\\p{Latin}|\\p{Han}|\\p{Cyrillic})*€{900}", "abc".repeat(30000)],
];
for (const [p, s] of cases) {
  const r = RE2JS.compile(p);
  const t0 = performance.now(); const m = r.test(s); const ms = performance.now() - t0;
  const units = s.length * r.programSize();
  console.log(p.slice(0, 40).padEnd(42), "prog", r.programSize(), "len", s.length, m, ms.toFixed(1), "ms", (units / ms / 1e6).toFixed(2), "M units/ms");
}
