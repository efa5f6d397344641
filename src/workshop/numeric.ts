/**
 * The standard normal distribution function Φ, by Abramowitz & Stegun 26.2.17 (absolute error below
 * 7.5e-8). Results are reported rounded to six decimals, well above that error.
 */
export function normalCdf(x: number): number {
  if (x < 0) return 1 - normalCdf(-x)
  const t = 1 / (1 + 0.2316419 * x)
  const poly = t * (0.31938153 + t * (-0.356563782 + t * (1.781477937 + t * (-1.821255978 + t * 1.330274429))))
  return 1 - (Math.exp((-x * x) / 2) / Math.sqrt(2 * Math.PI)) * poly
}

/** Six decimals: what every simulation reports, so equal inputs print equal outputs everywhere. */
export function round6(x: number): number {
  const r = Math.round(x * 1e6) / 1e6
  return Object.is(r, -0) ? 0 : r
}

/** The hours a series samples: every whole hour up to `hours`, and `hours` itself (at most 26 points). */
export function sampleHours(hours: number): number[] {
  const points = Array.from({ length: Math.floor(hours) + 1 }, (_, i) => i)
  if (hours > Math.floor(hours)) points.push(hours)
  return points
}
