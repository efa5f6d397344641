import assert from 'node:assert/strict'
import { execFile } from 'node:child_process'
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { after, before, describe, test } from 'node:test'
import { fileURLToPath } from 'node:url'
import { promisify } from 'node:util'
import { dialect } from '../support/database.ts'
import { startServer, type TestServer } from '../support/harness.ts'

const run = promisify(execFile)
const ROOT = fileURLToPath(new URL('../..', import.meta.url))
const README = readFileSync(join(ROOT, 'README.md'), 'utf8')

interface Block {
  /** Line of the opening fence, for messages. */
  line: number
  code: string
  mode: 'run' | 'setup' | 'skip'
  reason: string
}

/** Every ```sh block of the README, with the `<!-- readme-test: skip|setup (reason) -->` above it. */
function shellBlocks(markdown: string): Block[] {
  const lines = markdown.split('\n')
  const blocks: Block[] = []
  for (let i = 0; i < lines.length; i++) {
    if (lines[i] !== '```sh') continue
    const end = lines.indexOf('```', i + 1)
    let above = i - 1
    while (above >= 0 && lines[above]?.trim() === '') above--
    const marker = /^<!-- readme-test: (skip|setup) \((.*)\) -->$/.exec(lines[above] ?? '')
    blocks.push({
      line: i + 1,
      code: lines.slice(i + 1, end).join('\n'),
      mode: (marker?.[1] as Block['mode'] | undefined) ?? 'run',
      reason: marker?.[2] ?? '',
    })
    i = end
  }
  return blocks
}

/** `# -> text` lines: what the command before prints; `…` stands for anything. */
function expectations(code: string): RegExp[] {
  return code
    .split('\n')
    .flatMap((line) => /^# -> (.*)$/.exec(line)?.[1] ?? [])
    .map(
      (text) =>
        new RegExp(
          text
            .split('…')
            .map((part) => part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'))
            .join('.*?'),
        ),
    )
}

const OPERATOR_KEY = 'readme-operator-58m1l41OwF3MVxBScFg47qw7'
const METRICS_TOKEN = 'readme-metrics-token-0123456789'

/**
 * The README as a new user follows it: every shell block, in order, in one bash session, against a live
 * server started with the settings of "A local try". Two lines of the setup block are the user's
 * machine and are replaced: `B=` names the test server, and the test exports that server's settings
 * instead of reading .env. Everything else runs as written and must print what its `# ->` lines show.
 */
describe('README walkthrough', { skip: dialect === 'postgres' && 'the README describes the SQLite default' }, () => {
  let t: TestServer
  let dir: string
  const blocks = shellBlocks(README)

  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'clearing-readme-'))
    t = await startServer({
      databaseUrl: `sqlite:${join(dir, 'clearing.sqlite')}`,
      config: { contributionIntervalSeconds: 0, operatorKey: OPERATOR_KEY, metricsToken: METRICS_TOKEN },
    })
  })
  after(async () => {
    await t.close()
    rmSync(dir, { recursive: true, force: true })
  })

  test('every block the test does not run says why; the local try is what the test starts', () => {
    assert.ok(blocks.length > 10)
    for (const block of blocks.filter((b) => b.mode !== 'run')) {
      assert.ok(block.reason.length > 10, `README line ${block.line}: say why the test does not run it as is`)
    }
    const localTry = README.slice(README.indexOf('### A local try'), README.indexOf('## Connect an MCP client'))
    for (const setting of ['CONTRIBUTION_INTERVAL_SECONDS=0', 'OPERATOR_KEY=', 'METRICS_TOKEN=']) {
      assert.ok(localTry.includes(setting), `the local try sets ${setting}`)
    }
    for (const block of blocks.filter((b) => b.mode === 'run')) {
      assert.doesNotMatch(block.code, /localhost:8080|127\.0\.0\.1:8080|clr_\.\.\.|"\.\.\."/, `line ${block.line}`)
    }
  })

  test('every runnable command runs as written and prints what the README shows', async () => {
    const setup = blocks.find((b) => b.mode === 'setup')
    assert.ok(setup, 'the setup block of "A local try"')
    const machine = `export OPERATOR_KEY=${OPERATOR_KEY} METRICS_TOKEN=${METRICS_TOKEN} PUBLIC_BASE_URL=${t.url} DATABASE_URL=sqlite:${join(dir, 'clearing.sqlite')}`
    const setupCode = setup.code
      .replace('set -a; . ./.env; set +a', machine)
      .replace('B=http://127.0.0.1:8080', `B=${t.url}`)
    assert.notEqual(setupCode, setup.code)
    const runnable = blocks.filter((b) => b.mode !== 'skip')
    const script = runnable.map((b, i) => `printf '\\n@@block ${i}\\n'\n${b === setup ? setupCode : b.code}`).join('\n')
    const file = join(dir, 'readme.sh')
    writeFileSync(file, script)
    let stdout = ''
    let stderr = ''
    try {
      ;({ stdout, stderr } = await run('bash', [file], {
        cwd: ROOT,
        timeout: 240_000,
        maxBuffer: 64 * 1024 * 1024,
        // The README's `node` is the one running these tests (npm puts Node 24 first for npm test too).
        env: { ...process.env, PATH: `${dirname(process.execPath)}:${process.env.PATH ?? ''}` },
      }))
    } catch (err) {
      const failed = err as { stdout?: string; stderr?: string }
      assert.fail(`the walkthrough failed:\n${failed.stdout ?? ''}\n${failed.stderr ?? ''}`)
    }
    const outputs = stdout.split(/\n@@block \d+\n/).slice(1)
    assert.equal(outputs.length, runnable.length, stderr)
    runnable.forEach((block, i) => {
      const output = outputs[i] ?? ''
      let from = 0
      for (const expected of expectations(block.code)) {
        const found = expected.exec(output.slice(from))
        assert.ok(found, `README line ${block.line}: expected ${expected} in\n${output}\n${stderr}`)
        from += found.index + found[0].length
      }
      assert.doesNotMatch(output, /\{"error":\{"code":/, `README line ${block.line} answered an error:\n${output}`)
    })
  })
})
