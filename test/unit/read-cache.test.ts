import assert from 'node:assert/strict'
import { describe, test } from 'node:test'
import { isKept, isSharedPart, ReadCache } from '../../src/core/read-cache.ts'

/** Reads through the cache, counting how often the store was actually read. */
function counter(cache: ReadCache) {
  const reads = new Map<string, number>()
  return {
    reads,
    get: (key: string, stamp = 's1') =>
      cache.through(key, stamp, async () => {
        reads.set(key, (reads.get(key) ?? 0) + 1)
        return { key, stamp }
      }),
  }
}

describe('read cache (core/read-cache.ts)', () => {
  test('a result is kept once its key is asked for again, and then served while the stamp holds', async () => {
    const { reads, get } = counter(new ReadCache(4))
    assert.equal(isKept(await get('a')), false, "a result asked for once is nobody else's: it may be sent as it is")
    assert.equal(isKept(await get('a')), true, 'a kept result is shared: it is encoded once')
    assert.equal(reads.get('a'), 2, 'a key asked for once is not kept')
    const kept = await get('a')
    await get('a')
    assert.equal(reads.get('a'), 2, 'the repeated key is served from the cache')
    assert.deepEqual(kept, { key: 'a', stamp: 's1' })
  })

  test('a kept key whose stamp changed is read again and kept again at once', async () => {
    const { reads, get } = counter(new ReadCache(4))
    await get('a')
    await get('a')
    assert.deepEqual(await get('a', 's2'), { key: 'a', stamp: 's2' }, 'a new stamp is never answered from the old')
    await get('a', 's2')
    assert.equal(reads.get('a'), 3, 'one read per stamp once the key is known to repeat')
  })

  test('entries are bounded (least recently used out first), and so are the keys remembered', async () => {
    const { reads, get } = counter(new ReadCache(1))
    for (const key of ['a', 'a', 'b', 'b']) await get(key)
    await get('a')
    assert.equal(reads.get('a'), 3, 'b took the one entry')
    // One entry remembers four once-asked keys: the fifth pushes the first out.
    for (const key of ['k1', 'k2', 'k3', 'k4', 'k5']) await get(key)
    await get('k1')
    await get('k1')
    assert.equal(reads.get('k1'), 3, 'k1 was forgotten, so its second ask only remembered it again')
    await get('k5')
    await get('k5')
    assert.equal(reads.get('k5'), 2, 'k5 was still remembered: its second ask kept it')
  })

  test('the text kept is bounded: the least recently used go first, and one answer over a quarter is not kept', async () => {
    // Values are their key repeated: JSON text of the key's length plus two quotes.
    const reads = new Map<string, number>()
    const cache = new ReadCache(100, 44)
    const get = (key: string) =>
      cache.through(key, 's1', async () => {
        reads.set(key, (reads.get(key) ?? 0) + 1)
        return key
      })
    const twice = async (key: string) => {
      await get(key)
      await get(key)
    }
    const keys = ['a', 'b', 'c', 'd', 'e'].map((letter) => letter.repeat(8))
    for (const key of keys) await twice(key)
    for (const key of keys) await get(key)
    assert.deepEqual(
      keys.map((key) => reads.get(key)),
      [3, 2, 2, 2, 2],
      'five 10-character values are over 44: the oldest went',
    )
    await twice('f'.repeat(10))
    await get('f'.repeat(10))
    assert.equal(reads.get('f'.repeat(10)), 3, 'a 12-character value is over a quarter of 44: never kept')
  })

  test('a part is kept like a result, and once kept it and the objects directly in it are marked shared', async () => {
    const cache = new ReadCache(4)
    let reads = 0
    const part = () =>
      cache.part('revisions 0', 's1', async () => {
        reads++
        return { items: [{ id: 1 }], next: 1, more: { deep: true } }
      })
    const once = await part()
    assert.equal(isSharedPart(once), false, "asked once, a part is nobody else's")
    assert.equal(isSharedPart(once.items), false)
    const kept = await part()
    assert.equal(isSharedPart(kept), true)
    assert.equal(isSharedPart(kept.items), true, "a page embeds the part's items, not the part")
    assert.equal(isSharedPart(kept.more), true)
    assert.equal(isSharedPart(kept.items[0]), false, 'only one level down')
    assert.equal(await part(), kept, 'served from the cache while the stamp holds')
    assert.equal(reads, 2)
    assert.equal(
      isSharedPart(await cache.through('revisions 0', 's1', async () => ({ other: [] }))),
      false,
      'parts have keys of their own',
    )
    const roots = () => cache.part('recent_roots', 's1', async () => [{ id: 1 }])
    await roots()
    const keptRoots = await roots()
    assert.equal(isSharedPart(keptRoots), true, 'an array part is embedded whole')
    assert.equal(isSharedPart(keptRoots[0]), false, 'its elements never are')
  })
})
