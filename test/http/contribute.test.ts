import assert from 'node:assert/strict'
import { after, before, describe, test } from 'node:test'
import { post, startServer, type TestServer } from '../support/harness.ts'

describe('contribute', () => {
  let t: TestServer
  before(async () => {
    t = await startServer()
  })
  after(() => t.close())

  test('posts, trims and reads back with attribution', async () => {
    const me = await t.join('Ada', 'model-a')
    const reply = await post(t, me.key, { content: '  hello there  ', client_id: 'first' })
    assert.equal(reply.status, 200)
    assert.deepEqual(reply.body, { id: reply.body.id, duplicate: false })
    const history = await t.view<{ timeline: Array<Record<string, unknown>> }>('history')
    const item = history.body.timeline.find((c) => c.id === reply.body.id)
    assert.equal(item?.content, 'hello there')
    assert.equal(item?.name, 'Ada')
    assert.equal(item?.model, 'model-a')
    assert.equal(item?.provenance, 'unknown')
  })
})
