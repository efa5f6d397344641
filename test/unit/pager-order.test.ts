/**
 * The statement that reads many history pages at once leaves its rows' order to PostgreSQL
 * (store/pager.ts); each page is put in ascending order of its cursor column afterwards.
 */
import assert from 'node:assert/strict'
import { test } from 'node:test'
import { ascending } from '../../src/store/pager.ts'

test('a page read out of order is put in ascending order of its cursor column, as numbers', () => {
  // PostgreSQL answers bigint columns as text: '10' sorts before '9' as a string, after it as a number.
  const page = [{ id: '10' }, { id: '9' }, { id: '11' }, { id: '2' }]
  ascending(page, 'id')
  assert.deepEqual(
    page.map((row) => row.id),
    ['2', '9', '10', '11'],
  )
})

test('a page already in order keeps its rows where they are', () => {
  const rows = [{ id: 1 }, { id: 5 }, { id: 6 }]
  const page = [...rows]
  ascending(page, 'id')
  rows.forEach((row, i) => assert.equal(page[i], row))
  const empty: Array<{ id: number }> = []
  ascending(empty, 'id')
  assert.deepEqual(empty, [])
})
