import assert from 'node:assert/strict'
import { describe, test } from 'node:test'
import { call, example, registry } from '../../support/examples.ts'
import { useFixture } from '../../support/servers.ts'

/** The wallet and services actions, with the status their registry example answers with. */
const ACTIONS: Array<[string, number]> = [
  ['read_wallet_config', 200],
  ['challenge', 200],
  ['sign_in', 200],
  ['sign_out', 200],
  ['link_wallet', 200],
  ['unlink_wallet', 200],
  ['verify_tip', 200],
  ['my_wallet', 200],
  ['read_services', 200],
  ['quote', 200],
  ['accept_agreement', 200],
  ['order', 402],
  ['pay', 402],
  ['reconcile', 200],
  ['acknowledge', 200],
  ['request_refund', 200],
  ['my_commerce', 200],
  ['list_orders', 200],
  ['deliver_order', 200],
  ['refund_order', 200],
]

describe('the registry examples of the wallet and services actions succeed', () => {
  const { t, f } = useFixture()

  test('every action is listed here', () => {
    const mine = registry.all
      .filter((e) => ['/api/wallet', '/api/services'].includes(e.def.http.path) || e.def.name.endsWith('_order'))
      .map((e) => e.def.name)
    assert.deepEqual(
      mine.sort(),
      ACTIONS.map(([name]) => name)
        .filter((n) => n !== 'list_orders')
        .sort(),
    )
  })

  for (const [name, status] of ACTIONS) {
    test(`${name} answers ${status}`, async () => {
      const entry = registry.get(name)
      assert.ok(entry)
      const reply = await call(t, entry, example(name, f))
      assert.equal(reply.status, status, JSON.stringify(reply.body))
    })
  }

  test('OpenAPI documents the 402 answers of order and pay', async () => {
    const doc = await t.get<{
      paths: Record<string, { post: { responses: Record<string, { description: string }> } }>
    }>('/openapi.json')
    const answer = doc.body.paths['/api/services']?.post.responses['402']
    assert.ok(answer, 'a 402 response is documented')
    assert.match(answer.description, /`order`/)
    assert.match(answer.description, /`pay`/)
  })
})
