import { fullFormats } from "ajv-formats/dist/formats.js";
const seeds = ["a", "1", "a.", "a-", "-", ".", ":", "1:", "a@", "@", "%", "%2", "/", "//", "a:", "::", "0.", "1.1", "T", "Z", "+", "\\", "[", "{", "x-", "aa.", "1-", "0:", "a/", "~", "?", "#", "=", "&", "*", "1a", "P1", "P", "1Y", "T1", "W"];
const bad = ["!", "\u0000", " ", "\n", "@", "", "Ω"];
const worst = {};
for (const [name, f] of Object.entries(fullFormats)) {
  const fn = typeof f === "function" ? f : f instanceof RegExp ? (s) => f.test(s) : typeof f.validate === "function" ? f.validate : (s) => f.validate.test(s);
  let w = 0, wk = "";
  for (const seed of seeds) for (const b of bad) {
    const s = seed.repeat(Math.ceil(20000 / seed.length)) + b;
    const t0 = performance.now(); try { fn(s); } catch {} const ms = performance.now() - t0;
    if (ms > w) { w = ms; wk = JSON.stringify(seed) + "+" + JSON.stringify(b); }
  }
  worst[name] = w.toFixed(1) + " " + wk;
}
console.log(worst);
