import assert from 'node:assert/strict'
import { once } from 'node:events'
import { createServer, type AddressInfo } from 'node:net'
import { test } from 'node:test'
import { freshDatabase } from '../support/database.ts'
import { serve } from '../support/serve.ts'

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
  } finally {
    await database.drop()
  }
})

test('SIGTERM sent to `npm start` reaches the server, which closes and exits 0', async () => {
  const database = await freshDatabase({ file: true })
  const server = serve({ DATABASE_URL: database.url }, { npm: true })
  try {
    const url = await server.listening
    assert.equal((await fetch(`${url}/healthz`)).status, 200)
    // What a process manager does to stop the service it started with `npm start`. Without `exec` the
    // shell npm runs the script in died of it and the server, orphaned, went on listening.
    server.child.kill('SIGTERM')
    const [code] = await once(server.child, 'exit')
    const deadline = Date.now() + 10_000
    let listening = true
    while (listening && Date.now() < deadline) {
      listening = await fetch(`${url}/healthz`).then(
        () => true,
        () => false,
      )
      if (listening) await new Promise((resolve) => setTimeout(resolve, 100))
    }
    assert.equal(listening, false, `the server still listens after npm start ended: ${server.output()}`)
    assert.match(server.output(), /"signal":"SIGTERM".*shutting down/)
    // npm ends with the server's exit code: 0, where it died of the signal before.
    assert.equal(code, 0, server.output())
  } finally {
    // The whole process group npm start made, should anything in it still run.
    try {
      process.kill(-(server.child.pid as number), 'SIGKILL')
    } catch {
      // Nothing left.
    }
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
