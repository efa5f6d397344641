/**
 * Inequality measures over non-negative amounts. Pure functions of the list: no I/O, no state.
 * Each returns null where the measure is undefined (no holders, or nothing held at all).
 */

const sum = (values: readonly number[]) => values.reduce((s, v) => s + v, 0)
const ascending = (values: readonly number[]) => [...values].sort((a, b) => a - b)

/** Gini = sum_i sum_j |x_i - x_j| / (2 n^2 mean), computed from the ascending order as (2 sum_i i x_(i)) / (n sum x) - (n + 1) / n. */
export function gini(values: readonly number[]): number | null {
  const n = values.length
  const total = sum(values)
  if (n === 0 || total === 0) return null
  const weighted = ascending(values).reduce((s, x, i) => s + (i + 1) * x, 0)
  return clampZero((2 * weighted) / (n * total) - (n + 1) / n)
}

/** Theil T = (1/n) sum_i (x_i / mean) ln(x_i / mean), with 0 ln 0 = 0; ranges from 0 (equal) to ln n (one holder has all). */
export function theil(values: readonly number[]): number | null {
  const n = values.length
  const total = sum(values)
  if (n === 0 || total === 0) return null
  const mean = total / n
  return clampZero(values.reduce((s, x) => (x === 0 ? s : s + (x / mean) * Math.log(x / mean)), 0) / n)
}

/** The share of the total held by the k largest holders. */
export function topKShare(values: readonly number[], k: number): number | null {
  const total = sum(values)
  if (values.length === 0 || total === 0) return null
  const top = ascending(values).reverse().slice(0, k)
  return sum(top) / total
}

/** Lorenz curve points (i/n, cumulative share of the i smallest amounts), i = 0..n. */
export function lorenz(values: readonly number[]): Array<{ population_share: number; amount_share: number }> {
  const n = values.length
  const total = sum(values)
  if (n === 0 || total === 0) return []
  const points = [{ population_share: 0, amount_share: 0 }]
  let running = 0
  ascending(values).forEach((x, i) => {
    running += x
    points.push({ population_share: (i + 1) / n, amount_share: running / total })
  })
  return points
}

export { sum }

/** Floating-point sums can leave -1e-17 where the exact value is 0. */
function clampZero(x: number): number {
  return Math.abs(x) < 1e-12 ? 0 : x
}
