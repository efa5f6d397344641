import assert from 'node:assert/strict'
import { once } from 'node:events'
import { createServer, type AddressInfo } from 'node:net'
import { test } from 'node:test'
import { QUIET_SECONDS } from '../../src/memory-upkeep.ts'
import { freshDatabase } from '../support/database.ts'
import { glibc } from '../support/platform.ts'
import { serve } from '../support/serve.ts'

/**
 * The server's debug line for what it handed back on this occasion (src/main.ts): V8 collected and the
 * RSS fell, and on Linux at least `executableMb` of the executable's pages were unmapped.
 */
function assertHandedBack(output: string, occasion: string, executableMb: number) {
  const line = output.split('\n').find((l) => l.includes(`"msg":"${occasion}: V8 collected`))
  assert.ok(line, `no hand-back "${occasion}" in: ${output}`)
  const entry = JSON.parse(line) as { msg: string; rssMb: { before: number; after: number }; executableMb?: number }
  assert.ok(
    entry.rssMb.after < entry.rssMb.before,
    `${occasion}: RSS ${entry.rssMb.before} MB before, ${entry.rssMb.after} after`,
  )
  if (process.platform !== 'linux') return
  assert.match(entry.msg, /, executable pages unmapped$/)
  assert.ok(
    (entry.executableMb ?? 0) >= executableMb,
    `${occasion}: ${entry.executableMb} MB of the executable unmapped`,
  )
}

test('SIGTERM finishes in-flight requests, closes the database and exits 0', async () => {
  const database = await freshDatabase({ file: true })
  try {
    const server = serve({ DATABASE_URL: database.url })
    const url = await server.listening
    assert.equal((await fetch(`${url}/healthz`)).status, 200)
    const inFlight = fetch(`${url}/api/clearing`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ action: 'join', name: 'Last', model: 'm' }),
    })
    // Signal only once the server has the request (its debug line): a fixed delay loses the race on a
    // loaded machine, and Fastify answers 503 to requests that arrive after closing began.
    while (
      !/"msg":"incoming request".*"path":"\/api\/clearing"|"path":"\/api\/clearing".*"msg":"incoming request"/.test(
        server.output(),
      )
    )
      await new Promise((resolve) => setTimeout(resolve, 2))
    const signalled = Date.now()
    server.child.kill('SIGTERM')
    const reply = await inFlight
    assert.equal(reply.status, 200, 'the request in flight at SIGTERM was answered')
    const [code] = await once(server.child, 'exit')
    assert.equal(code, 0, server.output())
    // The in-flight request's connection is closed with its answer: kept alive, it held the shutdown
    // until Node's keep-alive timeout (72 s) ran out.
    assert.ok(Date.now() - signalled < 30_000, `exit took ${Date.now() - signalled} ms after SIGTERM`)
    assert.match(server.output(), /shutting down/)
    // The C heap's free memory goes back to the system where glibc can do it (src/memory-trim.ts).
    assert.match(server.output(), glibc ? /every 1000 ms \(malloc_trim\)/ : /malloc_trim is not available/)
  } finally {
    await database.drop()
  }
})

test("npm start's server hands back the memory it grew under work once it has been quiet", async () => {
  const database = await freshDatabase({ file: true })
  try {
    const server = serve({ DATABASE_URL: database.url })
    const url = await server.listening
    // Work enough to count as busy (src/memory-upkeep.ts: BUSY_USE of a second), then nothing.
    const until = Date.now() + 1500
    while (Date.now() < until) {
      await Promise.all(
        Array.from({ length: 20 }, () => fetch(`${url}/api/clearing?view=arrival`).then((r) => r.text())),
      )
    }
    // Quiet is a run of seconds with the event loop under 2% busy; while the rest of the suite loads
    // both cores, the idle server's timers can take longer than that for some seconds (a CI run once
    // saw no run of five in 15 s), so the test waits up to 45 s: it ends as soon as the line appears.
    const deadline = Date.now() + (QUIET_SECONDS + 40) * 1000
    while (!/quiet after work: V8 collected/.test(server.output()) && Date.now() < deadline)
      await new Promise((resolve) => setTimeout(resolve, 100))
    server.child.kill('SIGTERM')
    await once(server.child, 'exit')
    assert.match(server.output(), new RegExp(`after ${QUIET_SECONDS} quiet seconds V8 collects`))
    // The work read pages of the executable again; on Linux the quiet hand-back unmaps them too.
    assertHandedBack(server.output(), 'quiet after work', 1)
  } finally {
    await database.drop()
  }
})

test("npm start's server hands back what starting grew before it listens", async () => {
  const database = await freshDatabase({ file: true })
  try {
    const server = serve({ DATABASE_URL: database.url })
    await server.listening
    server.child.kill('SIGTERM')
    await once(server.child, 'exit')
    // On Linux the executable's pages read while starting are unmapped with it (src/executable-pages.ts).
    assertHandedBack(server.output(), 'started', 10)
    // Before the server listens, so no request waits for it.
    assert.ok(server.output().indexOf('started: V8 collected') < server.output().indexOf('Server listening at'))
  } finally {
    await database.drop()
  }
})

test('invalid configuration stops the start with a one-line reason', async () => {
  const server = serve({ PORT: 'not-a-port' })
  await assert.rejects(server.listening, /PORT must be a whole number/)
  assert.equal(server.child.exitCode, 1)
})

test('a port already taken stops the start with exit code 1, on either database', { timeout: 60_000 }, async () => {
  const database = await freshDatabase({ file: true })
  const taken = createServer()
  taken.listen(0, '127.0.0.1')
  await once(taken, 'listening')
  try {
    const server = serve({ DATABASE_URL: database.url, PORT: String((taken.address() as AddressInfo).port) })
    // A server that stays alive without listening never settles this: the test times out.
    await assert.rejects(server.listening, /exited early with 1: .*EADDRINUSE/s)
  } finally {
    taken.close()
    await database.drop()
  }
})
