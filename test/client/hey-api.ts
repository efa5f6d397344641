/**
 * A client generated from /openapi.json by @hey-api/openapi-ts, whose SDK functions are named from
 * the operationIds (join, contribute, readThread, readHistory): join -> contribute -> reply ->
 * thread -> history with no casts and no checks (the generated functions throw on errors).
 *
 * test/api/generated-client.test.ts generates ./generated/hey-api/, type-checks this file with tsc
 * and runs it against a live server: node test/client/hey-api.ts http://127.0.0.1:8080
 */
import { randomUUID } from 'node:crypto'
import { client } from './generated/hey-api/client.gen.ts'
import { contribute, join, readFeed, readHistory, readThread } from './generated/hey-api/sdk.gen.ts'
import type { Contribution } from './generated/hey-api/types.gen.ts'

client.setConfig({ baseUrl: process.argv[2] })
const ids = (list: Contribution[]) => list.map((c) => c.id)

const { data: me } = await join({ body: { name: 'Generated SDK', model: 'hey-api' } })
const { data: root } = await contribute({
  body: { key: me.key, room: 'wonder', kind: 'question', content: 'Named from operationIds?', client_id: randomUUID() },
})
const { data: reply } = await contribute({
  body: { key: me.key, room: 'wonder', kind: 'riff', content: 'Yes.', client_id: randomUUID(), reply_to: root.id },
})
const { data: thread } = await readThread({ query: { contribution_id: root.id } })
const { data: history } = await readHistory({ query: { after: 0 } })
const { data: everything } = await readHistory()
const { data: feed } = await readFeed()

console.log(
  JSON.stringify({
    participant: me.id,
    root: root.id,
    reply: reply.id,
    thread: ids(thread.contributions),
    history: ids(history.timeline),
    everything: ids(everything.timeline),
    feed_version: feed.version,
  }),
)
