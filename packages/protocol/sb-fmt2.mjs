import { fullFormats } from "ajv-formats/dist/formats.js";
const cases = [["uri", "1Y", "\u0000"], ["iso-date-time", "T", " "], ["regex", ".", " "], ["uri-reference", "P", "!"], ["uri-template", "W", "\u0000"], ["json-pointer", "Z", "Ω"], ["uuid", "1a", "\n"], ["byte", "T", "\u0000"]];
for (const [name, seed, b] of cases) {
  const f = fullFormats[name]; const fn = typeof f === "function" ? f : f instanceof RegExp ? (s) => f.test(s) : typeof f.validate === "function" ? f.validate : (s) => f.validate.test(s);
  const out = [];
  for (const n of [20000, 80000, 320000]) { const s = seed.repeat(n / seed.length) + b; fn(s); const t0 = performance.now(); fn(s); out.push((performance.now() - t0).toFixed(1)); }
  console.log(name, out.join(" "));
}
