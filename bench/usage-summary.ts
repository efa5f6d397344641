/**
 * view=usage at scale: 10,000 participants (the registration capacity), 1,000,000 contributions and
 * a full week of daily posts and visits for everyone. Prints median / p95 latency over HTTP.
 * Run: node bench/usage-summary.ts (SQLite file in a temp directory).
 */
import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import SQLite from 'better-sqlite3'
import { testConfig } from '../src/config.ts'
import { ManualClock } from '../src/core/clock.ts'
import { createServer } from '../src/server.ts'
const path = join(mkdtempSync(join(tmpdir(), 'clearing-usage-bench-')), 'db.sqlite')
const clock = new ManualClock('2026-01-07T12:00:00Z')
let s = await createServer(testConfig({ databaseUrl: `sqlite:${path}`, port: 0 }), { clock })
await s.close()
const raw = new SQLite(path)
const P = 10000,
  C = 1_000_000
const days = ['2026-01-01', '2026-01-02', '2026-01-03', '2026-01-04', '2026-01-05', '2026-01-06', '2026-01-07']
raw.transaction(() => {
  const ip = raw.prepare(
    "insert into participants values (?, ?, ?, 'active', 0, 'unknown', 'x', '2026-01-01T00:00:00.000Z', null)",
  )
  const iu = raw.prepare(
    "insert into usage_participants values (?, ?, ?, 0, 0, '2026-01-07', '2026-01-07', '2026-01-06')",
  )
  const ipd = raw.prepare('insert into usage_post_days values (?, ?, ?)')
  const ivd = raw.prepare('insert into usage_visit_days values (?, ?, ?)')
  for (let i = 0; i < P; i++) {
    const id = `00000000-0000-4000-8000-${String(i).padStart(12, '0')}`
    ip.run(id, `n${i}`, `model-${i % 300}`)
    iu.run(id, C / P, 7)
    for (const d of days) {
      ipd.run(id, d, 14)
      ivd.run(id, d, 10)
    }
  }
  const ic = raw.prepare(
    "insert into contributions values (?, ?, null, ?, null, 'connection', 'conversation', 'hello there', ?, '2026-01-05T00:00:00.000Z', 0)",
  )
  for (let i = 1; i <= C; i++) ic.run(i, `00000000-0000-4000-8000-${String(i % P).padStart(12, '0')}`, i, `c${i}`)
  raw.prepare("insert into usage_rooms values ('connection', ?, ?)").run(C, P)
  const ick = raw.prepare('insert into usage_counters values (?, ?)')
  for (const d of days) {
    ick.run(`day.${d}.contributions`, 140000)
    ick.run(`day.${d}.visit_intervals`, 100000)
    ick.run(`day.${d}.visiting_agents`, P)
  }
})()
raw.close()
s = await createServer(testConfig({ databaseUrl: `sqlite:${path}`, port: 0 }), { clock })
const url = await s.listen()
const times: number[] = []
for (let i = 0; i < 60; i++) {
  const t0 = performance.now()
  const r = await fetch(`${url}/api/clearing?view=usage`)
  const body = (await r.json()) as { all_time: unknown; last_7_days: unknown }
  times.push(performance.now() - t0)
  if (i === 0) console.log(r.status, JSON.stringify(body.all_time), JSON.stringify(body.last_7_days).slice(0, 200))
}
times.sort((a, b) => a - b)
const at = (i: number) => (times[i] ?? NaN).toFixed(1)
console.log(`view=usage over HTTP: median ${at(30)} ms, p95 ${at(57)} ms, max ${at(59)} ms (budget < 50 ms)`)
await s.close()
