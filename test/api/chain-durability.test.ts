import assert from 'node:assert/strict'
import { execFile } from 'node:child_process'
import { once } from 'node:events'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { after, before, describe, test } from 'node:test'
import { promisify } from 'node:util'
import { dialect, freshDatabase, type TestDatabase } from '../support/database.ts'
import { serve } from '../support/serve.ts'
import { npmVerify } from '../support/verify.ts'

const ROOT = new URL('../../', import.meta.url)
const run = promisify(execFile)
const PEPPER = 'chain-durability-pepper-0123456789abcdef'

async function postJson(base: string, path: string, body: unknown): Promise<Record<string, unknown>> {
  const res = await fetch(`${base}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  })
  const answer = (await res.json()) as Record<string, unknown>
  assert.equal(res.status, 200, JSON.stringify(answer))
  return answer
}

/**
 * The chain is state derived from committed rows and a head moved by a conditional update, so it
 * must hold wherever the rows do: after the process dies mid-stride and after a backup is restored.
 */
describe(`the hash chain across kill -9 and a backup/restore (${dialect})`, () => {
  let database: TestDatabase
  let dir: string
  before(async () => {
    database = await freshDatabase({ file: true, own: true })
    dir = mkdtempSync(join(tmpdir(), 'clearing-chain-'))
  })
  after(async () => {
    await database.drop()
    rmSync(dir, { recursive: true, force: true })
  })

  const env = () => ({
    DATABASE_URL: database.url,
    KEY_PEPPER: dialect === 'sqlite' ? '' : PEPPER,
    CONTRIBUTION_INTERVAL_SECONDS: '0',
  })
  const receipts: unknown[] = []
  async function postSome(base: string, count: number, tag: string): Promise<void> {
    const me = await postJson(base, '/api/clearing', { action: 'join', name: `Chain ${tag}`, model: 'm' })
    for (let n = 0; n < count; n++) {
      const body = { action: 'contribute', key: me.key, room: 'commons', kind: 'observation' }
      const answer = await postJson(base, '/api/clearing', {
        ...body,
        content: `${tag} ${n}`,
        client_id: `${tag}-${n}`,
      })
      receipts.push(answer.receipt)
    }
  }
  const receiptsFile = () => {
    const file = join(dir, `receipts-${receipts.length}.json`)
    writeFileSync(file, JSON.stringify(receipts))
    return file
  }

  test('a server killed with SIGKILL leaves a chain that verifies, with every receipt it gave', async () => {
    const first = serve(env())
    const base = await first.listening
    await postSome(base, 3, 'before-head')
    await fetch(`${base}/feed.json`) // extends the chain and stores a head
    await postSome(base, 3, 'after-head')
    first.child.kill('SIGKILL')
    await once(first.child, 'exit')

    const second = serve(env())
    try {
      const url = await second.listening
      const checked = await npmVerify(url, '--receipts', receiptsFile())
      assert.equal(checked.code, 0, checked.out)
      assert.match(checked.out, /6 receipts verified/)
    } finally {
      second.child.kill('SIGTERM')
      await once(second.child, 'exit')
    }
  })

  test('a restored backup verifies, and the chain goes on from it', async () => {
    const archive = join(dir, 'chain.backup')
    const server = serve(env())
    let url = await server.listening
    await fetch(`${url}/feed.json`)
    if (dialect === 'postgres') await run('pg_dump', ['-Fc', '-d', database.url, '-f', archive])
    else
      await run(process.execPath, ['src/main.ts', 'backup', archive], { cwd: ROOT, env: { ...process.env, ...env() } })
    await postSome(url, 2, 'after-backup')
    server.child.kill('SIGTERM')
    await once(server.child, 'exit')

    await run(process.execPath, ['src/main.ts', 'restore', archive], { cwd: ROOT, env: { ...process.env, ...env() } })
    const restored = serve(env())
    try {
      url = await restored.listening
      const before = await npmVerify(url)
      assert.equal(before.code, 0, before.out)
      await postSome(url, 2, 'after-restore')
      const afterwards = await npmVerify(url)
      assert.equal(afterwards.code, 0, afterwards.out)
    } finally {
      restored.child.kill('SIGTERM')
      await once(restored.child, 'exit')
    }
  })
})
