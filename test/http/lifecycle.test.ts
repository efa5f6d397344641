import assert from 'node:assert/strict'
import { spawn } from 'node:child_process'
import { once } from 'node:events'
import { test } from 'node:test'
import { freshDatabase } from '../support/database.ts'

const ROOT = new URL('../../', import.meta.url)

/** The real entry point, as `npm start` runs it (`node src/main.ts serve`), or `npm start` itself. */
function serve(env: Record<string, string>, { npm = false } = {}) {
  const [command, args] = npm ? ['npm', ['start']] : [process.execPath, ['src/main.ts', 'serve']]
  const child = spawn(command, args, {
    cwd: ROOT,
    // npm start in a process group of its own, so the test can end whatever it left running.
    detached: npm,
    env: {
      ...process.env,
      PORT: '0',
      HOST: '127.0.0.1',
      LOG_LEVEL: 'debug',
      KEY_PEPPER: 'lifecycle-test-pepper-0123456789abcdef',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  let output = ''
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()))
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()))
  const listening = new Promise<string>((resolve, reject) => {
    const timer = setInterval(() => {
      const match = /Server listening at (http:\/\/127\.0\.0\.1:\d+)/.exec(output)
      if (match?.[1]) {
        clearInterval(timer)
        resolve(match[1])
      }
    }, 20)
    child.once('exit', (code) => {
      clearInterval(timer)
      reject(new Error(`exited early with ${code}: ${output}`))
    })
  })
  return { child, listening, output: () => output }
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
