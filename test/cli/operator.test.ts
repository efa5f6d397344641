import assert from 'node:assert/strict'
import { execFile } from 'node:child_process'
import { randomBytes } from 'node:crypto'
import { createServer, type AddressInfo } from 'node:net'
import { describe, test } from 'node:test'
import { fileURLToPath } from 'node:url'
import { promisify } from 'node:util'
import { registry } from '../../src/app.ts'

const run = promisify(execFile)
const MAIN = fileURLToPath(new URL('../../src/main.ts', import.meta.url))
const strongKey = () => randomBytes(32).toString('base64url')

/** Runs `npm run operator -- ...args` as the script does; failures are answers too. */
async function operator(args: string[], env: Record<string, string> = {}) {
  const { OPERATOR_KEY: _key, PUBLIC_BASE_URL: _base, ...inherited } = process.env
  try {
    const { stdout, stderr } = await run(process.execPath, [MAIN, 'operator', ...args], {
      env: { ...inherited, ...env },
    })
    return { code: 0, stdout, stderr }
  } catch (err) {
    const failed = err as { code: number; stdout: string; stderr: string }
    return { code: failed.code, stdout: failed.stdout, stderr: failed.stderr }
  }
}

/** A port nothing listens on: taken from the system, then let go. */
async function closedPort(): Promise<number> {
  const server = createServer()
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as AddressInfo
  await new Promise((resolve) => server.close(resolve))
  return port
}

describe('npm run operator', () => {
  for (const flag of ['--help', 'help']) {
    test(`${flag} lists every operator action in the registry with each of its fields, without a key`, async () => {
      const { code, stdout } = await operator([flag])
      assert.equal(code, 0)
      const operatorActions = registry.all.filter((e) => e.def.auth === 'operator')
      assert.ok(operatorActions.length >= 20)
      const blocks = stdout.split('\n\n  ').slice(1)
      const listed = new Map(blocks.map((block) => [block.split('\n')[0]!.trim(), block]))
      assert.deepEqual(
        [...listed.keys()],
        operatorActions.map((e) => e.def.name),
      )
      for (const { def } of operatorActions) {
        const input = def.input as { properties: Record<string, unknown>; required?: string[] }
        for (const field of Object.keys(input.properties)) {
          if (field === 'action' || field === 'operator_key') continue
          const star = input.required?.includes(field) ? '\\*' : ''
          assert.match(listed.get(def.name)!, new RegExp(`\\n      ${field}${star} \\(`), `${def.name} lists ${field}`)
        }
      }
      assert.match(listed.get('quarantine')!, /reason_code\* \(spam\|harassment\|/, 'enumerations list their values')
    })
  }

  test('a server that cannot be reached is named with the URL tried and the reason', async () => {
    const port = await closedPort()
    const { code, stderr } = await operator(['list_drafts'], { OPERATOR_KEY: strongKey(), PORT: String(port) })
    assert.equal(code, 1)
    assert.equal(
      stderr.trim(),
      `error: could not reach http://127.0.0.1:${port}/api/operator: connection refused (is the server running?)`,
    )
  })

  test('no action prints the usage and where the list of actions is', async () => {
    const { code, stderr } = await operator([])
    assert.equal(code, 1)
    assert.match(stderr, /usage: npm run operator -- ACTION/)
    assert.match(stderr, /--help lists the actions/)
  })
})
