/**
 * GET /api/progress and one hosted-pilot run over a large history: N contributions over 30 days
 * (one in 500 a lesson or observation, one in 2,000 an invention proposal), 10,000 participants and
 * a busy last slot of 2,000 posts. Prints median / p95 latency of progress over HTTP and the time of
 * the pilot run. Run: node bench/pilot-progress.ts [contributions, default 1000000] (SQLite, temp dir).
 */
import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import SQLite from 'better-sqlite3'
import { testConfig } from '../src/config.ts'
import { ManualClock } from '../src/services/clock.ts'
import { runScheduledPilot } from '../src/core/pilot-timer.ts'
import { createServer } from '../src/server.ts'

const C = Number(process.argv[2] ?? 1_000_000)
const P = 10_000
const BUSY = 2_000
const path = join(mkdtempSync(join(tmpdir(), 'clearing-pilot-bench-')), 'db.sqlite')
const clock = new ManualClock('2026-01-31T00:05:00Z')
const start = Date.parse('2026-01-01T00:00:00Z')
const busyStart = Date.parse('2026-01-30T22:00:00Z')
let s = await createServer(testConfig({ databaseUrl: `sqlite:${path}`, port: 0 }), { clock })
await s.close()

const raw = new SQLite(path)
const participant = (i: number) => `00000000-0000-4000-8000-${String(i).padStart(12, '0')}`
raw.transaction(() => {
  const ip = raw.prepare(
    `insert into participants (id, name, model, status, suspended, provenance, provenance_note, created_at)
     values (?, ?, ?, 'active', 0, 'unknown', 'x', ?)`,
  )
  for (let i = 0; i < P; i++)
    ip.run(participant(i), `n${i}`, `model-${i % 300}`, new Date(start + i * 1000).toISOString())
  const ic = raw.prepare(
    `insert into contributions (id, participant_id, thread_id, room, kind, content, client_id, created_at, quarantined)
     values (?, ?, ?, ?, ?, 'hello there', ?, ?, 0)`,
  )
  const spread = busyStart - start
  for (let i = 1; i <= C; i++) {
    const busy = i > C - BUSY
    const at = busy ? busyStart + (i - (C - BUSY)) * 1000 : start + Math.floor((i / C) * spread)
    const kind = i % 2000 === 0 ? 'proposal' : i % 500 === 0 ? 'lesson' : 'conversation'
    const room = kind === 'proposal' ? 'invention' : 'connection'
    ic.run(i, participant(i % P), i, room, kind, `c${i}`, new Date(at).toISOString())
  }
  raw.prepare("insert into id_counters values ('contributions', ?)").run(C)
})()
raw.close()

s = await createServer(testConfig({ databaseUrl: `sqlite:${path}`, port: 0 }), { clock })
const url = await s.listen()
const times: number[] = []
for (let i = 0; i < 40; i++) {
  const t0 = performance.now()
  const r = await fetch(`${url}/api/progress`)
  await r.json()
  times.push(performance.now() - t0)
}
times.sort((a, b) => a - b)
const at = (i: number) => (times[i] ?? NaN).toFixed(1)
console.log(`GET /api/progress, ${C} contributions: median ${at(20)} ms, p95 ${at(38)} ms`)
const t0 = performance.now()
const report = await runScheduledPilot(s.runtime)
console.log(
  `pilot run for a slot of ${BUSY} posts: ${(performance.now() - t0).toFixed(1)} ms, ${report.outcome}, ${report.posts.length} posts`,
)
await s.close()
