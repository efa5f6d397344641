import assert from 'node:assert/strict'
import { Writable } from 'node:stream'
import { describe, test } from 'node:test'
import { createLogger, redactSecrets, SECRET_FIELDS } from '../../src/logger.ts'

function capture() {
  const lines: string[] = []
  const destination = new Writable({
    write(chunk, _encoding, done) {
      lines.push(String(chunk))
      done()
    },
  })
  return { logger: createLogger({ logLevel: 'info' }, destination), lines }
}

describe('secrets never reach the log', () => {
  for (const field of SECRET_FIELDS) {
    test(`"${field}" is censored at the top, nested, in arrays and on errors`, () => {
      const secret = `s3cret-${field}-value`
      const { logger, lines } = capture()
      logger.info({ [field]: secret, path: '/api/clearing' }, 'top')
      logger.info({ body: { [field]: secret } }, 'nested')
      logger.info({ input: { batch: [{ [field]: secret }] } }, 'deep')
      logger.error({ err: Object.assign(new Error('failed'), { [field]: secret }) }, 'error')
      const text = lines.join('')
      assert.equal(lines.length, 4)
      assert.equal(text.includes(secret), false, text)
      assert.equal(text.split('[redacted]').length - 1, 4, 'each occurrence is censored')
      assert.match(text, /"message":"failed"/, 'the error keeps its message')
      assert.match(text, /"path":"\/api\/clearing"/, 'other fields stay')
    })
  }

  test('an object without secrets is logged as it is, not copied', () => {
    const line = { method: 'GET', path: '/api/clearing', status: 200, ms: 1, nested: { name: 'x' } }
    assert.equal(redactSecrets(line), line)
  })

  test('the object handed to the logger is not changed by its redaction', () => {
    const body = { key: 'clr_abc', content: 'hello' }
    const { logger } = capture()
    logger.info({ body }, 'request body')
    assert.deepEqual(body, { key: 'clr_abc', content: 'hello' })
  })

  test('a cyclic object is logged without looping', () => {
    const a: Record<string, unknown> = { name: 'a' }
    a.self = a
    const { logger, lines } = capture()
    logger.info({ a, key: 'clr_cycle' }, 'cycle')
    assert.equal(lines.join('').includes('clr_cycle'), false)
  })
})
