import assert from 'node:assert/strict'
import { execFileSync } from 'node:child_process'
import { randomBytes } from 'node:crypto'
import { brotliDecompressSync, gunzipSync } from 'node:zlib'
import { describe, test } from 'node:test'
import Fastify from 'fastify'
import {
  COMPRESSED_BYTES,
  COMPRESSED_ENTRIES,
  compressedBytesKept,
  compressedKept,
  fileBody,
  INLINE_BELOW,
  sendBody,
  sendResult,
} from '../../src/http/representation.ts'

/** Text that compresses like a page of posts: words repeated in varying order, not one run repeated. */
function words(count: number): string[] {
  const vocabulary = ['agent', 'forum', 'thread', 'note', 'reply', 'model', 'room', 'cursor', 'page', 'revision']
  return Array.from({ length: count }, (_, i) => `${vocabulary[(i * 7) % 10]}-${(i * 7919) % 1000}`)
}

const DECODE = { br: brotliDecompressSync, gzip: gunzipSync } as const

/** Text that barely compresses, the same for the same name: random bytes in base64. */
const noises = new Map<string, string>()
const noise = (name: string, bytes: number) => {
  const key = `${name} ${bytes}`
  if (!noises.has(key)) noises.set(key, randomBytes((bytes * 3) / 4).toString('base64'))
  return noises.get(key) as string
}

describe('compressed answers', () => {
  const server = async () => {
    const app = Fastify()
    app.get('/json/:count', (request, reply) =>
      sendResult(
        request,
        reply,
        { items: words(Number((request.params as { count: string }).count)) },
        'application/json',
      ),
    )
    app.get('/noise/:name/:bytes', (request, reply) => {
      const { name, bytes } = request.params as { name: string; bytes: string }
      return sendResult(request, reply, { text: noise(name, Number(bytes)) }, 'application/json')
    })
    const file = fileBody(Buffer.from(JSON.stringify({ items: words(4000) })))
    app.get('/file.json', (request, reply) => sendBody(request, reply, file, 'application/json', 'no-cache'))
    await app.ready()
    return app
  }

  test('an answer compressed once is not kept; compressed again, it is kept and sent as the same bytes', async () => {
    const app = await server()
    const headers = { 'accept-encoding': 'br' }
    const before = compressedKept()
    // First in this file: the answers of the tests below fill the bounded cache, where a count cannot grow.
    assert.ok(before < COMPRESSED_ENTRIES, `${before} compressed answers kept already`)
    // A stream of distinct answers, as pollers with their own cursors make: none of them is kept.
    for (let n = 1; n <= COMPRESSED_ENTRIES + 2; n++) {
      const answer = await app.inject({ url: `/json/${1000 + n}`, headers })
      assert.equal(answer.headers['content-encoding'], 'br')
    }
    assert.equal(compressedKept(), before, 'no answer of the stream was asked for twice')
    const first = await app.inject({ url: '/json/3000', headers })
    assert.equal(compressedKept(), before)
    const second = await app.inject({ url: '/json/3000', headers })
    assert.equal(compressedKept(), before + 1, 'the repeated answer is kept')
    const third = await app.inject({ url: '/json/3000', headers })
    assert.equal(compressedKept(), before + 1, 'and served from there')
    assert.deepEqual(second.rawPayload, first.rawPayload)
    assert.deepEqual(third.rawPayload, first.rawPayload)
    await app.close()
  })

  test('the compressed answers kept stay within their bytes; one over a quarter of them is not kept', async () => {
    const app = await server()
    const headers = { 'accept-encoding': 'gzip' }
    // Each asked for twice, so each is kept: 32 of them compress to some twice the bound.
    const size = COMPRESSED_BYTES / 16
    for (let n = 0; n < 32; n++) {
      for (let ask = 0; ask < 2; ask++) await app.inject({ url: `/noise/${n}/${size}`, headers })
      assert.ok(compressedBytesKept() <= COMPRESSED_BYTES, `${compressedBytesKept()} bytes kept after ${n + 1}`)
    }
    assert.ok(compressedBytesKept() > COMPRESSED_BYTES / 2, `${compressedBytesKept()} bytes kept`)
    const before = compressedKept()
    for (let ask = 0; ask < 3; ask++) {
      const answer = await app.inject({ url: `/noise/large/${COMPRESSED_BYTES / 2}`, headers })
      assert.equal(answer.headers['content-encoding'], 'gzip')
    }
    assert.ok(compressedKept() <= before, 'the large answer is compressed for each request, never kept')
    await app.close()
  })

  // 4,000 words are ~50 KB, compressed on the request's turn; 40,000 are ~500 KB, in zlib's pool.
  for (const [count, where] of [
    [4000, 'inline'],
    [40_000, 'in the pool'],
  ] as const) {
    test(`a JSON answer of ${count} words (${where}) decodes to its text in br and gzip, the same bytes each time`, async () => {
      const app = await server()
      const plain = await app.inject({ url: `/json/${count}` })
      assert.equal(plain.headers['content-encoding'], undefined)
      assert.equal(plain.rawPayload.length < INLINE_BELOW, where === 'inline', `${plain.rawPayload.length} bytes`)
      for (const encoding of ['br', 'gzip'] as const) {
        const headers = { 'accept-encoding': encoding }
        const first = await app.inject({ url: `/json/${count}`, headers })
        // Other answers push it out of the bounded cache of compressed bodies: the next is compressed anew.
        for (let n = 1; n <= COMPRESSED_ENTRIES + 2; n++) await app.inject({ url: `/json/${n * 100}`, headers })
        const again = await app.inject({ url: `/json/${count}`, headers })
        assert.equal(first.headers['content-encoding'], encoding)
        assert.equal(DECODE[encoding](first.rawPayload).toString('utf8'), plain.body)
        assert.ok(first.rawPayload.length < plain.rawPayload.length / 4, `${encoding} shrinks the answer`)
        assert.deepEqual(again.rawPayload, first.rawPayload)
        assert.equal(again.headers.etag, first.headers.etag)
        assert.equal(first.headers.etag, String(plain.headers.etag).replace(/"$/, `-${encoding}"`))
      }
      await app.close()
    })
  }

  test('a file, compressed once for the process, is compressed harder than an answer made per request', async () => {
    const app = await server()
    for (const encoding of ['br', 'gzip'] as const) {
      const headers = { 'accept-encoding': encoding }
      const answer = await app.inject({ url: '/json/4000', headers })
      const file = await app.inject({ url: '/file.json', headers })
      assert.equal(
        DECODE[encoding](file.rawPayload).toString('utf8'),
        DECODE[encoding](answer.rawPayload).toString('utf8'),
      )
      assert.ok(
        file.rawPayload.length < answer.rawPayload.length,
        `${encoding}: file ${file.rawPayload.length} bytes, answer ${answer.rawPayload.length}`,
      )
    }
    await app.close()
  })

  // Compressed on the request's turn, a text is encoded into one reused scratch buffer: every answer
  // must decode to its own characters, however many bytes each takes, up to the largest inline text.
  test('non-ASCII answers up to the largest compressed inline decode to their own text, one after another', async () => {
    const app = Fastify()
    app.get('/text/:unit/:count', (request, reply) => {
      const { unit, count } = request.params as { unit: string; count: string }
      return sendResult(request, reply, { text: unit.repeat(Number(count)) }, 'application/json')
    })
    await app.ready()
    // é takes 2 bytes of UTF-8, € 3 (the most per UTF-16 unit), 😀 4 (2 per unit); each text is just
    // short of INLINE_BELOW units in its JSON (`{"text":"…"}` adds 12).
    const texts = [
      ['€', INLINE_BELOW - 13],
      ['é', 2000],
      ['😀', (INLINE_BELOW - 14) / 2],
      ['a€', 2000],
    ] as const
    for (const encoding of ['br', 'gzip'] as const) {
      for (const [unit, count] of texts) {
        const url = `/text/${encodeURIComponent(unit)}/${count}`
        const answer = await app.inject({ url, headers: { 'accept-encoding': encoding } })
        assert.equal(answer.headers['content-encoding'], encoding)
        const body = DECODE[encoding](answer.rawPayload).toString('utf8')
        assert.ok(body.length < INLINE_BELOW, `${body.length} units: compressed inline`)
        assert.deepEqual(JSON.parse(body), { text: unit.repeat(count) })
      }
    }
    await app.close()
  })

  test('answers compressed on the request turn leave no Buffer behind that only a full collection frees', () => {
    const out = execFileSync(
      process.execPath,
      // Young collections only when the test runs them: 64 MB of young generation holds the whole loop.
      ['--expose-gc', '--max-semi-space-size=64', '--input-type=module', '-e', COMPRESSING],
      { encoding: 'utf8' },
    )
    const { answers, kept } = JSON.parse(out) as { answers: number; kept: Record<string, number> }
    for (const [encoding, bytes] of Object.entries(kept)) {
      // Each answer's output chunk alone is 4 KB (half of Buffer.poolSize), cut from a pool Buffer of 8 KB.
      assert.ok(bytes < answers * 512, `${encoding}: ${bytes} bytes of Buffers kept after ${answers} answers`)
    }
  })
})

/**
 * A process that compresses distinct answers, as the cache-missed pages are, drops them, lets V8 run
 * two young collections (after which anything still alive has been promoted, to stay until a full
 * one) and prints how much Buffer memory (ArrayBuffers) each encoding left allocated.
 */
const COMPRESSING = `
import { compressAnswer } from ${JSON.stringify(new URL('../../src/http/representation.ts', import.meta.url).href)}
const answers = 2000
const text = (n) => JSON.stringify({ items: Array.from({ length: 1500 }, (_, i) => 'word-' + ((i * 7919 + n) % 1000)) })
const buffers = () => process.memoryUsage().arrayBuffers
const settled = async () => {
  for (let i = 0; i < 2; i++) {
    gc({ type: 'minor' })
    await new Promise((resolve) => setTimeout(resolve, 20))
  }
}
const kept = {}
for (const encoding of ['br', 'gzip']) {
  await compressAnswer(text(0), encoding)
  gc({ type: 'major' })
  await settled()
  const before = buffers()
  let bytes = 0
  for (let n = 1; n <= answers; n++) bytes += (await compressAnswer(text(n), encoding)).length
  if (bytes === 0) throw new Error('nothing compressed')
  await settled()
  kept[encoding] = buffers() - before
}
console.log(JSON.stringify({ answers, kept }))
`
