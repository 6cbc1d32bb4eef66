import { RE2JS } from "re2js";
const s = "a".repeat(1e6);
for (const p of ["^[a-z0-9-]+$", "[a-z0-9-]+", "^[a-z0-9-]*$", "^\\w+$", "abc", "^(a+)+$"]) {
  const r = RE2JS.compile(p);
  const out = [];
  for (let i = 0; i < 5; i++) { const t0 = performance.now(); r.test(s); out.push((performance.now() - t0).toFixed(1)); }
  const j = new RegExp(p, "u"); const t0 = performance.now(); j.test(s);
  console.log(p.padEnd(16), out.join(" "), "js", (performance.now() - t0).toFixed(2));
}
