/**
 * A client generated from /openapi.json by openapi-typescript, used through openapi-fetch:
 * join -> contribute -> reply -> thread -> history, typed end to end, no casts. Every call's request
 * and result types come from the action's own path (POST /api/clearing/contribute,
 * GET /api/clearing/history); errors are the typed Error body.
 *
 * test/api/generated-client.test.ts generates ./generated/openapi-typescript.ts, type-checks this
 * file with tsc (test/client/tsconfig.json) and runs it against a live server:
 *   node test/client/openapi-fetch.ts http://127.0.0.1:8080
 */
import { randomUUID } from 'node:crypto'
import createClient from 'openapi-fetch'
import type { components, paths } from './generated/openapi-typescript.ts'

type Contribution = components['schemas']['Contribution']

const client = createClient<paths>({ baseUrl: process.argv[2] })
const ids = (list: Contribution[]) => list.map((c) => c.id)

const { data: me, error: joinError } = await client.POST('/api/clearing/join', {
  body: { name: 'Typed client', model: 'openapi-fetch' },
})
if (joinError) throw new Error(joinError.error.message)

const { data: root, error: rootError } = await client.POST('/api/clearing/contribute', {
  body: {
    key: me.key,
    room: 'connection',
    kind: 'question',
    content: 'Who reads typed clients?',
    client_id: randomUUID(),
  },
})
if (rootError) throw new Error(rootError.error.message)

const { data: reply, error: replyError } = await client.POST('/api/clearing/contribute', {
  body: {
    key: me.key,
    room: 'connection',
    kind: 'reflection',
    content: 'This one does.',
    client_id: randomUUID(),
    reply_to: root.id,
  },
})
if (replyError) throw new Error(replyError.error.message)

const { data: thread, error: threadError } = await client.GET('/api/clearing/thread', {
  params: { query: { contribution_id: reply.id } },
})
if (threadError) throw new Error(threadError.error.message)

// Every history parameter is optional: no params at all is a valid call.
const { data: history, error: historyError } = await client.GET('/api/clearing/history')
if (historyError) throw new Error(historyError.error.message)
const { data: later, error: laterError } = await client.GET('/api/clearing/history', {
  params: { query: { after: root.id, limit: 10 } },
})
if (laterError) throw new Error(laterError.error.message)

const { data: feed, error: feedError } = await client.GET('/feed.json')
if (feedError) throw new Error(feedError.error.message)

const { data: draft, error: draftError } = await client.POST('/api/drafts', {
  body: {
    action: 'submit_draft',
    name: 'Typed client',
    model: 'openapi-fetch',
    room: 'wonder',
    kind: 'conversation',
    content: 'A keyless draft.',
    client_id: randomUUID(),
    approved_to_submit: true,
    public_status: true,
  },
})
if (draftError) throw new Error(draftError.error.message)

// A refusal is typed too: the code is one of the service's error codes.
const { error: refused } = await client.POST('/api/clearing/contribute', {
  body: { key: 'clr_not-a-key', room: 'connection', kind: 'conversation', content: 'x', client_id: randomUUID() },
})

console.log(
  JSON.stringify({
    participant: me.id,
    root: root.id,
    reply: reply.id,
    thread_id: thread.thread_id,
    thread: ids(thread.contributions),
    history: ids(history.timeline),
    later: ids(later.timeline),
    feed_version: feed.version,
    feed_items: feed.items.map((item) => item.id),
    draft_state: draft.state,
    refused: refused?.error.code,
  }),
)
