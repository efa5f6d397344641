import type { Ledger, LedgerEntry } from './ledger-schema.ts'
import { gini, lorenz, sum, theil, topKShare } from './measures.ts'

export const UNCATEGORIZED = 'uncategorized'

export const DEFINITIONS = {
  totals:
    'entries: ledger entries; holders: distinct holders; categories: distinct categories; amount: the sum of all amounts.',
  shares: "A holder's share is the holder's amount (summed over its entries) divided by the total amount.",
  gini:
    'Gini coefficient: the mean absolute difference between all pairs of holders divided by twice the mean, ' +
    'sum_i sum_j |x_i - x_j| / (2 n^2 mean). 0 when all hold the same; (n - 1) / n when one holder has everything. Null when nothing is held.',
  theil:
    'Theil T index: (1/n) sum_i (x_i / mean) ln(x_i / mean), with 0 ln 0 = 0. 0 when all hold the same; at most ln n (the maximum). ' +
    'normalized = T / ln n (null for a single holder). Null when nothing is held.',
  top_k_share:
    "The share of the total held by the k largest holders (ties broken by holder label). k is the ledger's top_k, or the top tenth of holders (at least one).",
  lorenz:
    'Lorenz curve: holders sorted from smallest to largest amount; point i is (i / n, the share held by the i smallest). The diagonal means equality.',
  categories: `Per-category breakdown: entries grouped by category ("${UNCATEGORIZED}" when none is given), each with its amount, share of the total, holders, Gini and Theil among its holders.`,
}

const round = (x: number | null) => (x === null ? null : Math.round(x * 1e9) / 1e9)

/** Sums each holder's entries; the order (amount descending, then label) makes every tie deterministic. */
function byHolder(entries: readonly LedgerEntry[]): Array<{ holder: string; amount: number }> {
  const totals = new Map<string, number>()
  for (const e of entries) totals.set(e.holder, (totals.get(e.holder) ?? 0) + e.amount)
  return [...totals]
    .map(([holder, amount]) => ({ holder, amount }))
    .sort((a, b) => b.amount - a.amount || (a.holder < b.holder ? -1 : a.holder > b.holder ? 1 : 0))
}

/** Analyzes a ledger the schema accepted. Pure: the answer depends on the ledger alone. */
export function analyzeLedger(ledger: Ledger) {
  const holders = byHolder(ledger.entries)
  const amounts = holders.map((h) => h.amount)
  const total = sum(amounts)
  const n = holders.length
  const k = Math.min(ledger.top_k ?? Math.max(1, Math.ceil(n / 10)), Math.max(n, 1))
  const t = theil(amounts)
  const categories = [...new Set(ledger.entries.map((e) => e.category ?? UNCATEGORIZED))]
  return {
    unit: ledger.unit,
    title: ledger.title ?? '',
    source: ledger.source,
    totals: {
      entries: ledger.entries.length,
      holders: n,
      categories: categories.length,
      amount: total,
      definition: DEFINITIONS.totals,
    },
    shares: {
      holders: holders.map((h) => ({
        holder: h.holder,
        amount: h.amount,
        share: round(total === 0 ? null : h.amount / total),
      })),
      definition: DEFINITIONS.shares,
    },
    gini: { value: round(gini(amounts)), definition: DEFINITIONS.gini },
    theil: {
      value: round(t),
      maximum: n === 0 ? null : round(Math.log(n)),
      normalized: t === null || n < 2 ? null : round(t / Math.log(n)),
      definition: DEFINITIONS.theil,
    },
    top_k_share: {
      k,
      value: round(topKShare(amounts, k)),
      holders: holders.slice(0, k).map((h) => h.holder),
      definition: DEFINITIONS.top_k_share,
    },
    lorenz: {
      points: lorenz(amounts).map((p) => ({
        population_share: round(p.population_share) as number,
        amount_share: round(p.amount_share) as number,
      })),
      definition: DEFINITIONS.lorenz,
    },
    categories: { breakdown: breakdown(ledger.entries, categories, total), definition: DEFINITIONS.categories },
  }
}

function breakdown(entries: readonly LedgerEntry[], categories: string[], total: number) {
  const groups = new Map<string, LedgerEntry[]>(categories.map((c) => [c, []]))
  for (const e of entries) groups.get(e.category ?? UNCATEGORIZED)?.push(e)
  return [...groups]
    .map(([category, inCategory]) => {
      const amounts = byHolder(inCategory).map((h) => h.amount)
      const amount = sum(amounts)
      return {
        category,
        entries: inCategory.length,
        holders: amounts.length,
        amount,
        share: round(total === 0 ? null : amount / total),
        gini: round(gini(amounts)),
        theil: round(theil(amounts)),
      }
    })
    .sort((a, b) => b.amount - a.amount || (a.category < b.category ? -1 : 1))
}

export type LedgerAnalysis = ReturnType<typeof analyzeLedger>
