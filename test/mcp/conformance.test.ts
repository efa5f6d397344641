import assert from 'node:assert/strict'
import { execFile } from 'node:child_process'
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { after, before, describe, test } from 'node:test'
import { fileURLToPath } from 'node:url'
import { promisify } from 'node:util'
import { startServer, type TestServer } from '../support/harness.ts'

const run = promisify(execFile)
const BASELINE = fileURLToPath(new URL('conformance-baseline.yml', import.meta.url))
const SUITE = fileURLToPath(
  new URL('../../node_modules/@modelcontextprotocol/conformance/dist/index.js', import.meta.url),
)
/** The scenarios that apply to a stateless server of tools and guide resources: they must pass, never be baselined. */
const MUST_PASS = ['server-initialize', 'ping', 'tools-list', 'resources-list', 'dns-rebinding-protection']

describe('the official MCP conformance suite', () => {
  let t: TestServer
  let results: string
  before(async () => {
    t = await startServer()
    results = mkdtempSync(join(tmpdir(), 'clearing-conformance-'))
  })
  after(async () => {
    await t.close()
    rmSync(results, { recursive: true, force: true })
  })

  test('the baseline lists only scenarios that do not apply, each with a reason', () => {
    const lines = readFileSync(BASELINE, 'utf8').split('\n')
    const listed = lines.flatMap((line) => /^\s+- ([\w-]+)\s*$/.exec(line)?.[1] ?? [])
    assert.ok(listed.length > 10)
    for (const name of MUST_PASS) assert.ok(!listed.includes(name), `${name} applies and must pass`)
    listed.forEach((name) => {
      const index = lines.findIndex((line) => line.trim() === `- ${name}`)
      const reason = lines
        .slice(0, index)
        .reverse()
        .find((line) => !line.trim().startsWith('- '))
      assert.match(reason ?? '', /^\s+#/, `${name} follows a comment that gives the reason`)
    })
  })

  test('the active suite passes against a live server, apart from the baseline', async () => {
    // localhost, not 127.0.0.1: the DNS-rebinding scenario needs a name it can contrast with evil.example.com.
    const url = `${t.url.replace('127.0.0.1', 'localhost')}/api/mcp`
    let output: string
    try {
      const done = await run(
        process.execPath,
        [SUITE, 'server', '--url', url, '--expected-failures', BASELINE, '-o', results],
        {
          cwd: results,
        },
      )
      output = done.stdout + done.stderr
    } catch (err) {
      const { stdout = '', stderr = '' } = err as { stdout?: string; stderr?: string }
      assert.fail(`conformance failed (a regression, or a stale baseline entry):\n${stdout}${stderr}`)
    }
    assert.match(output, /Baseline check passed/)
    for (const name of MUST_PASS) assert.match(output, new RegExp(`✓ ${name}: [1-9]\\d* passed, 0 failed`), name)
  })
})
