import assert from 'node:assert/strict'
import { brotliDecompressSync, gunzipSync } from 'node:zlib'
import { describe, test } from 'node:test'
import Fastify from 'fastify'
import { fileBody, sendBody, sendResult } from '../../src/http/representation.ts'

/** A file's body (the web view's assets) is compressed once per encoding, however often it is asked for. */
describe('file bodies', () => {
  const text = Buffer.from('const answer = 42;\n'.repeat(2000))
  const body = fileBody(text)

  const server = async () => {
    const app = Fastify()
    const sent: unknown[] = []
    app.addHook('onSend', async (_request, _reply, payload) => {
      sent.push(payload)
      return payload
    })
    app.get('/file.js', (request, reply) => sendBody(request, reply, body, 'text/javascript', 'public, max-age=60'))
    // Distinct JSON answers, each compressed into the bounded cache that other answers share.
    app.get('/json/:n', (request, reply) =>
      sendResult(
        request,
        reply,
        { n: (request.params as { n: string }).n, filler: 'x'.repeat(4096) },
        'application/json',
      ),
    )
    await app.ready()
    return { app, sent }
  }

  test('each encoding is compressed once and sent as the same bytes to every request', async () => {
    const { app, sent } = await server()
    for (const [encoding, decode] of [
      ['br', brotliDecompressSync],
      ['gzip', gunzipSync],
    ] as const) {
      const answers = [
        await app.inject({ url: '/file.js', headers: { 'accept-encoding': encoding } }),
        await app.inject({ url: '/file.js', headers: { 'accept-encoding': encoding } }),
      ]
      for (const res of answers) {
        assert.equal(res.statusCode, 200)
        assert.equal(res.headers['content-encoding'], encoding)
        assert.equal(res.headers['cache-control'], 'public, max-age=60')
        assert.match(String(res.headers.vary), /accept-encoding/)
        assert.equal(res.headers.etag, `"${body.hash}-${encoding}"`)
        assert.deepEqual(decode(res.rawPayload), text)
      }
    }
    assert.equal(sent.length, 4)
    assert.equal(sent[0], sent[1], 'the br bytes of the first answer are those of the second')
    assert.equal(sent[2], sent[3], 'and so are the gzip bytes')
    // More distinct answers than the shared cache holds do not push the file's compressed bytes out.
    for (let n = 0; n < 200; n++) await app.inject({ url: `/json/${n}`, headers: { 'accept-encoding': 'br' } })
    await app.inject({ url: '/file.js', headers: { 'accept-encoding': 'br' } })
    assert.equal(sent.at(-1), sent[0])
    await app.close()
  })

  test('a client that does not compress gets the file itself; any tag of it revalidates with 304', async () => {
    const { app } = await server()
    const plain = await app.inject({ url: '/file.js' })
    assert.equal(plain.headers['content-encoding'], undefined)
    assert.deepEqual(plain.rawPayload, text)
    for (const tag of [`"${body.hash}"`, `"${body.hash}-br"`, `W/"${body.hash}-gzip"`]) {
      const again = await app.inject({ url: '/file.js', headers: { 'if-none-match': tag, 'accept-encoding': 'br' } })
      assert.equal(again.statusCode, 304, tag)
      assert.equal(again.rawPayload.length, 0)
    }
    await app.close()
  })
})
