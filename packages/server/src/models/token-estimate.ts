/**
 * The token estimator (pure): a request's input tokens from its text, calibrated by real usage.
 *
 * A request is reduced to five features: ASCII bytes, CJK characters, other non-ASCII bytes (CJK text
 * tokenizes very differently from ASCII, and a request's mixture changes from turn to turn), items
 * (messages, tool calls and tools: each carries a few framing tokens), and one per request (what
 * every request carries whatever its length: the provider's own framing). The estimate is a linear
 * function of them whose weights are the ridge least-squares fit of every observation so far — each
 * response's real `usage` input tokens against its request's features — pulled towards a prior
 * (roughly a GPT tokenizer's ratios) by about one observation's weight. Only the sums XᵀX and Xᵀy are
 * kept (persisted per provider and model, and increased atomically), so the fit survives restarts,
 * is shared by every instance, and never forgets older observations of an unchanging tokenizer.
 */

/** Number of features. */
export const FEATURE_COUNT = 5;

/** A request's features: [ASCII bytes, CJK characters, other non-ASCII bytes, items, requests]. */
export type TokenFeatures = [number, number, number, number, number];

/** Tokens per feature unit before any calibration (about what GPT tokenizers give). */
export const PRIOR_WEIGHTS: Readonly<TokenFeatures> = [0.25, 1.0, 0.4, 4, 10];

/** How many observations' worth the prior counts for, per feature. */
const PRIOR_STRENGTH = 1;

/** The empty feature vector. */
export function noFeatures(): TokenFeatures {
  return [0, 0, 0, 0, 0];
}

function isCjk(code: number): boolean {
  return (
    (code >= 0x3040 && code <= 0x30ff) || // kana
    (code >= 0x3400 && code <= 0x4dbf) ||
    (code >= 0x4e00 && code <= 0x9fff) ||
    (code >= 0xac00 && code <= 0xd7af) || // hangul
    (code >= 0xf900 && code <= 0xfaff) ||
    (code >= 0xff00 && code <= 0xffef) || // full-width forms
    (code >= 0x3000 && code <= 0x303f) || // CJK punctuation
    (code >= 0x20000 && code <= 0x2fa1f)
  );
}

/** Adds the features of `text` (and `items` framing items) to `into`; answers `into`. */
export function addTextFeatures(into: TokenFeatures, text: string, items = 0): TokenFeatures {
  let ascii = 0;
  let cjk = 0;
  let other = 0;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code < 0x80) {
      ascii++;
      continue;
    }
    if (code >= 0xd800 && code <= 0xdbff && i + 1 < text.length) {
      const full = text.codePointAt(i) as number;
      i++;
      if (isCjk(full)) cjk++;
      else other += 4;
      continue;
    }
    if (isCjk(code)) cjk++;
    else other += code < 0x800 ? 2 : 3;
  }
  into[0] += ascii;
  into[1] += cjk;
  into[2] += other;
  into[3] += items;
  return into;
}

/** The sum of two feature vectors. */
export function sumFeatures(a: Readonly<TokenFeatures>, b: Readonly<TokenFeatures>): TokenFeatures {
  return [a[0] + b[0], a[1] + b[1], a[2] + b[2], a[3] + b[3], a[4] + b[4]];
}

/** The observation terms one (features, tokens) pair adds to the sums, in CALIBRATION_SUM_COLUMNS order. */
export function observationTerms(x: Readonly<TokenFeatures>, tokens: number): number[] {
  const terms: number[] = [];
  for (let i = 0; i < FEATURE_COUNT; i++) {
    for (let j = i; j < FEATURE_COUNT; j++) terms.push((x[i] as number) * (x[j] as number));
  }
  for (let i = 0; i < FEATURE_COUNT; i++) terms.push((x[i] as number) * tokens);
  return terms;
}

/** Calibrated weights (tokens per feature unit) from the persisted sums; the prior when there are none. */
export function calibratedWeights(observations: number, sums: readonly number[] | undefined): TokenFeatures {
  if (sums === undefined || observations === 0) return [...PRIOR_WEIGHTS];
  const xx: number[][] = Array.from({ length: FEATURE_COUNT }, () => new Array<number>(FEATURE_COUNT).fill(0));
  let k = 0;
  for (let i = 0; i < FEATURE_COUNT; i++) {
    for (let j = i; j < FEATURE_COUNT; j++) {
      const value = sums[k++] ?? 0;
      (xx[i] as number[])[j] = value;
      (xx[j] as number[])[i] = value;
    }
  }
  const xy = sums.slice(k, k + FEATURE_COUNT);
  // Ridge towards the prior, scaled per feature by its mean square, so units do not matter.
  const a = xx.map((row) => [...row]);
  const b = xy.map((value) => value);
  for (let i = 0; i < FEATURE_COUNT; i++) {
    const meanSquare = (xx[i] as number[])[i] as number;
    const lambda = PRIOR_STRENGTH * (meanSquare > 0 ? meanSquare / observations : 1);
    (a[i] as number[])[i] = ((a[i] as number[])[i] as number) + lambda;
    b[i] = (b[i] as number) + lambda * (PRIOR_WEIGHTS[i] as number);
  }
  const solved = solve(a, b);
  return solved === undefined ? [...PRIOR_WEIGHTS] : (solved as TokenFeatures);
}

/** The estimated input tokens of a request with features `x`. */
export function estimateTokens(weights: Readonly<TokenFeatures>, x: Readonly<TokenFeatures>): number {
  let total = 0;
  for (let i = 0; i < FEATURE_COUNT; i++) total += (weights[i] as number) * (x[i] as number);
  return Math.max(0, Math.ceil(total));
}

/** Solves `a·w = b` (Gaussian elimination with partial pivoting); undefined when singular. */
function solve(a: number[][], b: number[]): number[] | undefined {
  const n = b.length;
  const m = a.map((row, i) => [...row, b[i] as number]);
  for (let col = 0; col < n; col++) {
    let pivot = col;
    for (let row = col + 1; row < n; row++) {
      if (Math.abs((m[row] as number[])[col] as number) > Math.abs((m[pivot] as number[])[col] as number)) pivot = row;
    }
    const top = m[pivot] as number[];
    if (Math.abs(top[col] as number) < 1e-12) return undefined;
    m[pivot] = m[col] as number[];
    m[col] = top;
    for (let row = 0; row < n; row++) {
      if (row === col) continue;
      const current = m[row] as number[];
      const factor = (current[col] as number) / (top[col] as number);
      for (let c = col; c <= n; c++) current[c] = (current[c] as number) - factor * (top[c] as number);
    }
  }
  return m.map((row, i) => (row[n] as number) / (row[i] as number));
}
