import assert from 'node:assert/strict'
import { describe, test } from 'node:test'
import { Ajv2020 } from 'ajv/dist/2020.js'
import { analyzeLedger } from '../../src/distribution/analyze.ts'
import { blankLedger, ledgerSchema, type Ledger, type LedgerEntry } from '../../src/distribution/ledger-schema.ts'
import { gini, lorenz, theil, topKShare } from '../../src/distribution/measures.ts'
import { checkLedger } from '../../src/distribution/validate.ts'

const close = (actual: number | null | undefined, expected: number, tolerance = 1e-9) =>
  assert.ok(
    typeof actual === 'number' && Math.abs(actual - expected) <= tolerance,
    `${actual} is not within ${tolerance} of ${expected}`,
  )

const ledger = (entries: LedgerEntry[], extra: Partial<Ledger> = {}): Ledger => ({
  version: 1,
  unit: 'contributions',
  source: { kind: 'synthetic', description: 'hand-made' },
  entries,
  ...extra,
})

describe('distribution measures against hand-computed cases', () => {
  // Holders 1, 2, 3, 4 (total 10, mean 2.5).
  const values = [3, 1, 4, 2]

  test('Gini: sum of |x_i - x_j| over all pairs is 20; 20 / (2 * 16 * 2.5) = 0.25', () => {
    close(gini(values), 0.25)
    close(gini([5, 5, 5]), 0)
    close(gini([0, 0, 0, 8]), 0.75, 1e-12) // (n - 1) / n
    assert.equal(gini([]), null)
    assert.equal(gini([0, 0]), null)
  })

  test('Theil: (1/4)(0.4 ln 0.4 + 0.8 ln 0.8 + 1.2 ln 1.2 + 1.6 ln 1.6) = 0.106440135', () => {
    close(theil(values), 0.10644013528622318, 1e-12)
    close(theil([5, 5]), 0)
    close(theil([0, 0, 0, 8]), Math.log(4), 1e-12) // one holder has all: ln n
    assert.equal(theil([]), null)
  })

  test('top-k share and the Lorenz curve', () => {
    close(topKShare(values, 1), 0.4)
    close(topKShare(values, 2), 0.7)
    close(topKShare(values, 9), 1)
    assert.deepEqual(
      lorenz(values).map((p) => [p.population_share, Number(p.amount_share.toFixed(12))]),
      [
        [0, 0],
        [0.25, 0.1],
        [0.5, 0.3],
        [0.75, 0.6],
        [1, 1],
      ],
    )
    assert.deepEqual(lorenz([0, 0]), [])
  })
})

describe('analyzeLedger', () => {
  test('holders are summed across entries; shares, measures and categories follow', () => {
    const result = analyzeLedger(
      ledger([
        { holder: 'a', amount: 1, category: 'replies' },
        { holder: 'b', amount: 2, category: 'replies' },
        { holder: 'c', amount: 1, category: 'posts' },
        { holder: 'c', amount: 2, category: 'replies' },
        { holder: 'd', amount: 4, category: 'posts' },
      ]),
    )
    assert.deepEqual(
      { ...result.totals, definition: undefined },
      { entries: 5, holders: 4, categories: 2, amount: 10, definition: undefined },
    )
    assert.deepEqual(
      result.shares.holders.map((h) => [h.holder, h.amount, h.share]),
      [
        ['d', 4, 0.4],
        ['c', 3, 0.3],
        ['b', 2, 0.2],
        ['a', 1, 0.1],
      ],
    )
    close(result.gini.value, 0.25)
    close(result.theil.value, 0.106440135)
    close(result.theil.maximum, 1.386294361)
    close(result.theil.normalized, 0.106440135 / Math.log(4), 1e-9)
    assert.deepEqual([result.top_k_share.k, result.top_k_share.value, result.top_k_share.holders], [1, 0.4, ['d']])
    assert.equal(result.lorenz.points.length, 5)
    // Categories: replies {a: 1, b: 2, c: 2} = 5; posts {c: 1, d: 4} = 5. Ties sort by name.
    const [posts, replies] = result.categories.breakdown
    assert.deepEqual(
      { ...posts, gini: undefined, theil: undefined },
      { category: 'posts', entries: 2, holders: 2, amount: 5, share: 0.5, gini: undefined, theil: undefined },
    )
    close(posts?.gini, 0.3) // |1 - 4| * 2 / (2 * 4 * 2.5)
    close(replies?.gini, 2 / 15) // pairs: 1,1,0 -> sum 4 / (2 * 9 * 5/3)
    close(replies?.theil, 0.043692121, 1e-9) // (1/3)(0.6 ln 0.6 + 2 * 1.2 ln 1.2)
    for (const part of [
      result.totals,
      result.shares,
      result.gini,
      result.theil,
      result.top_k_share,
      result.lorenz,
      result.categories,
    ]) {
      assert.ok(part.definition.length > 20, 'every figure carries its definition')
    }
  })

  test('top_k from the ledger; the default is the top tenth of holders; entries without category are uncategorized', () => {
    const many = Array.from({ length: 25 }, (_, i) => ({ holder: `h${i}`, amount: i + 1 }))
    assert.equal(analyzeLedger(ledger(many)).top_k_share.k, 3)
    const chosen = analyzeLedger(ledger(many, { top_k: 5 }))
    assert.equal(chosen.top_k_share.k, 5)
    close(chosen.top_k_share.value, (25 + 24 + 23 + 22 + 21) / 325)
    assert.deepEqual(
      chosen.categories.breakdown.map((c) => c.category),
      ['uncategorized'],
    )
  })

  test('an empty ledger has zero totals and no measures', () => {
    const result = analyzeLedger(blankLedger())
    assert.equal(result.totals.amount, 0)
    assert.equal(result.gini.value, null)
    assert.equal(result.theil.value, null)
    assert.equal(result.top_k_share.value, null)
    assert.deepEqual(result.lorenz.points, [])
  })

  test('the same ledger always gives the same analysis', () => {
    const entries = [
      { holder: 'x', amount: 2.5 },
      { holder: 'y', amount: 2.5 },
      { holder: 'w', amount: 0.1 },
    ]
    assert.deepEqual(analyzeLedger(ledger(entries)), analyzeLedger(ledger([...entries].reverse())))
  })
})

/** Every subschema describing an object, with its location in the schema document. */
function objectSchemas(schema: unknown, path = '#'): Array<[string, Record<string, unknown>]> {
  if (typeof schema !== 'object' || schema === null) return []
  const node = schema as Record<string, unknown>
  const own: Array<[string, Record<string, unknown>]> =
    node.type === 'object' || 'properties' in node ? [[path, node]] : []
  const children = Object.entries(node).flatMap(([key, value]) =>
    key === 'properties' && typeof value === 'object' && value !== null
      ? Object.entries(value).flatMap(([name, sub]) => objectSchemas(sub, `${path}/properties/${name}`))
      : typeof value === 'object'
        ? objectSchemas(value, `${path}/${key}`)
        : [],
  )
  return [...own, ...children]
}

describe('the ledger schema', () => {
  const schema = ledgerSchema('https://clearing.example')
  const validate = new Ajv2020({ allErrors: true, strict: true }).compile(schema)

  test('is JSON Schema 2020-12 with its $id under the base URL and additionalProperties false at every level', () => {
    assert.equal(schema.$schema, 'https://json-schema.org/draft/2020-12/schema')
    assert.equal(schema.$id, 'https://clearing.example/distribution-ledger.schema.json')
    const objects = objectSchemas(schema)
    assert.deepEqual(
      objects.map(([path]) => path),
      ['#', '#/properties/source', '#/properties/entries/items'],
    )
    for (const [path, node] of objects) assert.equal(node.additionalProperties, false, path)
  })

  test('accepts its own blank ledger and a filled one', () => {
    assert.equal(validate(blankLedger()), true, JSON.stringify(validate.errors))
    assert.equal(
      validate(ledger([{ holder: 'a', amount: 1, category: 'c', note: 'n' }], { top_k: 2, title: 't' })),
      true,
    )
  })

  test('rejects extra properties at every level, with the pointer of each', () => {
    const cases: Array<[unknown, string]> = [
      [{ ...blankLedger(), extra: 1 }, '/extra'],
      [{ ...blankLedger(), source: { kind: 'synthetic', description: '', extra: 1 } }, '/source/extra'],
      [{ ...blankLedger(), entries: [{ holder: 'a', amount: 1, extra: 1 }] }, '/entries/0/extra'],
    ]
    for (const [value, path] of cases) {
      assert.equal(validate(value), false)
      const checked = checkLedger(value)
      assert.equal(checked.ok, false)
      assert.deepEqual(checked.ok ? [] : checked.problems.map((p) => p.path), [path])
    }
  })

  test('rejects wrong versions, negative amounts, unknown sources and missing fields', () => {
    for (const bad of [
      { ...blankLedger(), version: 2 },
      { ...blankLedger(), entries: [{ holder: 'a', amount: -1 }] },
      { ...blankLedger(), entries: [{ holder: '', amount: 1 }] },
      { ...blankLedger(), source: { kind: 'scraped', description: '' } },
      { version: 1, unit: 'u', entries: [] },
      { ...blankLedger(), entries: Array.from({ length: 1001 }, () => ({ holder: 'a', amount: 1 })) },
    ]) {
      assert.equal(checkLedger(bad).ok, false, JSON.stringify(bad).slice(0, 80))
    }
  })
})
