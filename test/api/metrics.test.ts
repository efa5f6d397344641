import assert from 'node:assert/strict'
import { readFileSync } from 'node:fs'
import { describe, test } from 'node:test'
import { post, type TestServer, useServer } from '../support/harness.ts'
import { callTool, connectMcp } from '../support/mcp.ts'
import { op, postDraft, submit } from '../support/operator.ts'

const TOKEN = 'metrics-token-for-tests-0123456789'

const scrape = (t: TestServer, authorization?: string) =>
  fetch(`${t.url}/metrics`, { headers: authorization ? { authorization } : {} })

/** The value of one sample line, e.g. `name{a="b"} 3`; undefined when absent. */
function sample(text: string, name: string, labels: Record<string, string> = {}): number | undefined {
  for (const line of text.split('\n')) {
    if (!line.startsWith(`${name}{`) && !line.startsWith(`${name} `)) continue
    if (!Object.entries(labels).every(([k, v]) => line.includes(`${k}="${v}"`))) continue
    return Number(line.slice(line.lastIndexOf(' ') + 1))
  }
  return undefined
}

describe('GET /metrics without METRICS_TOKEN', () => {
  const { t } = useServer()

  test('does not exist: 404, with or without a token', async () => {
    assert.equal((await scrape(t)).status, 404)
    assert.equal((await scrape(t, `Bearer ${TOKEN}`)).status, 404)
  })
})

describe('GET /metrics with METRICS_TOKEN', () => {
  const { t } = useServer({ config: { metricsToken: TOKEN } })

  test('is not public: 401 without the token or with a wrong one', async () => {
    for (const authorization of [undefined, 'Bearer wrong', `Bearer ${TOKEN}x`, TOKEN, `Basic ${TOKEN}`]) {
      const reply = await scrape(t, authorization)
      assert.equal(reply.status, 401, String(authorization))
      assert.equal(reply.headers.get('www-authenticate'), 'Bearer realm="metrics"')
      const body = (await reply.json()) as { error: { code: string } }
      assert.equal(body.error.code, 'invalid_token')
    }
    assert.equal(t.logs.join('').includes(TOKEN), false, 'the token is never logged')
  })

  test('the example alert rules name only metrics this server exposes', async () => {
    const rules = readFileSync(new URL('../../docs/prometheus-alerts.yml', import.meta.url), 'utf8')
    const named = new Set(rules.match(/\bclearing_[a-z_]+/g) ?? [])
    assert.ok(named.size >= 5, [...named].join(' '))
    const exposed = await (await scrape(t, `Bearer ${TOKEN}`)).text()
    for (const name of named) {
      const family = name.replace(/_bucket$/, '')
      assert.ok(exposed.includes(`# TYPE ${family} `), `${name} is exposed`)
    }
  })

  test("what waits for an operator: writes paused, drafts pending, cases open, the oldest one's age", async () => {
    const text = async () => (await scrape(t, `Bearer ${TOKEN}`)).text()
    const before = await text()
    const drafts = sample(before, 'clearing_drafts_pending') ?? -1
    const reports = sample(before, 'clearing_cases_open', { kind: 'report' }) ?? -1
    assert.equal(sample(before, 'clearing_writes_paused'), 0)
    assert.ok(drafts >= 0 && reports >= 0, before)

    assert.equal((await submit(t, postDraft())).status, 200)
    const filed = await t.act('report_content', {
      target_type: 'contribution',
      target_id: '1',
      category: 'spam',
      explanation: 'metrics test',
      good_faith: true,
    })
    assert.equal(filed.status, 200, JSON.stringify(filed.body))
    t.clock.advance(90)
    assert.equal((await op(t, 'pause_writes', { reason_code: 'other', reason: 'metrics test' })).status, 200)
    try {
      const during = await text()
      assert.equal(sample(during, 'clearing_writes_paused'), 1)
      assert.equal(sample(during, 'clearing_drafts_pending'), drafts + 1)
      assert.equal(sample(during, 'clearing_cases_open', { kind: 'report' }), reports + 1)
      assert.ok((sample(during, 'clearing_oldest_waiting_seconds') ?? 0) >= 90, during)
    } finally {
      await op(t, 'resume_writes', { reason_code: 'other', reason: 'metrics test' })
    }
    assert.equal(sample(await text(), 'clearing_writes_paused'), 0)
  })

  test('Prometheus text: action rates, outcomes and latencies per transport, conflicts, cache, process', async () => {
    const me = await t.join('Measured', 'm')
    await post(t, me.key, { client_id: 'same', content: 'one' })
    const conflict = await post(t, me.key, { client_id: 'same', content: 'two' })
    assert.equal(conflict.status, 409)
    // The read cache keeps a result when it is asked for a second time: the third read is a hit.
    for (let i = 0; i < 3; i++) await t.view('history', { after: 0 })
    const mcp = await connectMcp(t.url)
    await callTool(mcp, 'read_thread', { contribution_id: 1 })
    await mcp.close()

    const reply = await scrape(t, `Bearer ${TOKEN}`)
    assert.equal(reply.status, 200)
    assert.match(reply.headers.get('content-type') ?? '', /^text\/plain; version=0\.0\.4/)
    const text = await reply.text()
    const calls = 'clearing_action_calls_total'
    assert.equal(sample(text, calls, { action: 'contribute', transport: 'rest', outcome: 'ok' }), 1)
    assert.equal(sample(text, calls, { action: 'contribute', outcome: 'idempotency_conflict' }), 1)
    assert.equal(sample(text, calls, { action: 'read_thread', transport: 'mcp', outcome: 'ok' }), 1)
    assert.equal(sample(text, 'clearing_action_duration_seconds_count', { action: 'read_history' }), 3)
    assert.equal(sample(text, 'clearing_write_conflicts_total', { code: 'idempotency_conflict' }), 1)
    assert.ok((sample(text, 'clearing_read_cache_lookups_total', { result: 'hit' }) ?? 0) >= 1, 'a cache hit')
    assert.ok((sample(text, 'clearing_read_cache_hit_ratio') ?? 0) > 0)
    assert.ok(sample(text, 'clearing_http_request_duration_seconds_count', { route: '/api/clearing', status: '200' }))
    assert.ok(text.includes('clearing_transaction_retries_total'), 'retries are declared')
    assert.ok(sample(text, 'process_cpu_user_seconds_total') !== undefined, "Node's process metrics")
    // The conflicting post was given its remembered author (PostgreSQL), refused, and read again.
    const remembered = process.env.TEST_DIALECT === 'postgres' ? 1 : 0
    const known = 'clearing_known_author_requests_total'
    assert.equal(sample(text, known, { result: 'recalled' }), remembered)
    assert.equal(sample(text, known, { result: 'read_again' }), remembered)
    const pool = sample(text, 'clearing_db_pool_connections', { state: 'max' })
    assert.equal(pool, process.env.TEST_DIALECT === 'postgres' ? 10 : undefined, 'the pool, on PostgreSQL')
  })
})
