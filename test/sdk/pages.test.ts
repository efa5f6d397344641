/**
 * The SDK's async iterator on every paged read of the registry, against a live server: it walks pages
 * of one row, sends each page's next cursors with the next request, and ends when nothing remains.
 */
import assert from 'node:assert/strict'
import { after, before, describe, test } from 'node:test'
import { camel } from '../../src/http/openapi-components.ts'
import { example, makeFixture, registry, type Fixture } from '../support/examples.ts'
import { startServer, type TestServer } from '../support/harness.ts'
import { recordedClient, type RecordedClient } from '../support/sdk.ts'

type Walk = (input: Record<string, unknown>) => AsyncGenerator<unknown, void, undefined>

/** Reading the audit log is audited: each read adds a row, so it is walked in pages that outrun that. */
const PAGE_SIZE: Record<string, number> = { list_audit_log: 200 }
const MAX_PAGES = 40

function at(value: unknown, path: string): unknown {
  return path.split('.').reduce<unknown>((v, key) => (v as Record<string, unknown> | undefined)?.[key], value)
}

describe('the SDK iterator on every paged read', () => {
  let t: TestServer
  let f: Fixture
  let recorded: RecordedClient
  let walks = 0
  let longWalks = 0
  before(async () => {
    t = await startServer()
    f = await makeFixture(t)
    recorded = recordedClient(t)
  })
  after(() => {
    // The fixture gives several reads more than one row: an iterator that never turned a page proves little.
    assert.equal(walks, registry.all.filter((e) => e.def.paging).length)
    assert.ok(longWalks >= 5, `${longWalks} walks went past one page`)
    return t.close()
  })

  for (const entry of registry.all.filter((e) => e.def.paging)) {
    const name = entry.def.name
    test(`${name}: page after page, each request carrying the cursors the page before named`, async () => {
      const walk = (recorded.client.pages as unknown as Record<string, Walk>)[camel(name)]
      assert.ok(walk, `no iterator for ${name}`)
      const input = { ...example(name, f), limit: PAGE_SIZE[name] ?? 1 }
      const start = recorded.exchanges.length
      const pages: unknown[] = []
      for await (const page of walk(input)) {
        pages.push(page)
        assert.ok(pages.length <= MAX_PAGES, 'the walk ends')
      }
      const requests = recorded.exchanges.slice(start)
      assert.equal(requests.length, pages.length)
      const cursors = entry.def.paging ?? []
      for (let i = 1; i < pages.length; i++) {
        const request = requests[i]
        const sent = (field: string) =>
          request?.method === 'GET' ? new URL(request.url).searchParams.get(field) : request?.body?.[field]
        for (const c of cursors) assert.equal(String(sent(c.cursor)), String(at(pages[i - 1], c.next)), c.cursor)
      }
      for (const c of cursors) assert.notEqual(at(pages.at(-1), c.hasMore), true, `${c.hasMore} on the last page`)
      walks++
      if (pages.length > 1) longWalks++
    })
  }
})
