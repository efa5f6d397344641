import assert from 'node:assert/strict'
import { execFile } from 'node:child_process'
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { after, before, describe, test } from 'node:test'
import { fileURLToPath } from 'node:url'
import { promisify } from 'node:util'
import { dialect } from '../support/database.ts'
import { startServer, type TestServer } from '../support/harness.ts'

const run = promisify(execFile)
const ROOT = fileURLToPath(new URL('../..', import.meta.url))

/**
 * The documents whose shell blocks make one session, in the order a reader follows them: the README's
 * local try and first post, the walkthrough, then the pages that continue its session.
 */
const SESSION = [
  'README.md',
  'docs/walkthrough.md',
  'docs/interface.md',
  'docs/mcp.md',
  'docs/participation.md',
  'docs/learning.md',
  'docs/moderation.md',
  'docs/workshop.md',
  'docs/wallet.md',
  'docs/operating.md',
]
/** What the generated-client commands of docs/interface.md write into the working directory. */
const GENERATED = ['clearing-api.d.ts', 'clearing-sdk']

interface Block {
  file: string
  /** Line of the opening fence, for messages. */
  line: number
  code: string
  mode: 'run' | 'setup' | 'skip'
  reason: string
}

/** Every ```sh block of a document, with the `<!-- doc-test: skip|setup (reason) -->` above it. */
function shellBlocks(file: string): Block[] {
  const lines = readFileSync(join(ROOT, file), 'utf8').split('\n')
  const blocks: Block[] = []
  for (let i = 0; i < lines.length; i++) {
    if (lines[i] !== '```sh') continue
    const end = lines.indexOf('```', i + 1)
    let above = i - 1
    while (above >= 0 && lines[above]?.trim() === '') above--
    const marker = /^<!-- doc-test: (skip|setup) \((.*)\) -->$/.exec(lines[above] ?? '')
    blocks.push({
      file,
      line: i + 1,
      code: lines.slice(i + 1, end).join('\n'),
      mode: (marker?.[1] as Block['mode'] | undefined) ?? 'run',
      reason: marker?.[2] ?? '',
    })
    i = end
  }
  return blocks
}

const where = (block: Block): string => `${block.file} line ${block.line}`

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
 * The documentation as a new user follows it: every shell block of SESSION, in order, in one bash
 * session, against a live server started with the settings of the README's "A local try". Two lines of
 * the setup block are the user's machine and are replaced: `B=` names the test server, and the test
 * exports that server's settings instead of reading .env. Everything else runs as written (the pinned
 * third-party commands too, downloading what they need) and must print what its `# ->` lines show.
 */
describe(
  'the README and the walkthrough',
  { skip: dialect === 'postgres' && 'the docs describe the SQLite default' },
  () => {
    let t: TestServer
    let dir: string
    const blocks = SESSION.flatMap(shellBlocks)

    before(async () => {
      dir = mkdtempSync(join(tmpdir(), 'clearing-docs-'))
      t = await startServer({
        databaseUrl: `sqlite:${join(dir, 'clearing.sqlite')}`,
        config: { contributionIntervalSeconds: 0, operatorKey: OPERATOR_KEY, metricsToken: METRICS_TOKEN },
      })
    })
    after(async () => {
      await t.close()
      rmSync(dir, { recursive: true, force: true })
      for (const name of GENERATED) rmSync(join(ROOT, name), { recursive: true, force: true })
    })

    test('every block the test does not run says why; the local try is what the test starts', () => {
      assert.ok(blocks.length > 30)
      for (const block of blocks.filter((b) => b.mode !== 'run')) {
        assert.ok(block.reason.length > 10, `${where(block)}: say why the test does not run it as is`)
      }
      assert.deepEqual(
        blocks.filter((b) => b.mode === 'setup').map(where),
        [where(blocks.find((b) => b.mode === 'setup') as Block)],
        'one setup block, in the README',
      )
      const readme = readFileSync(join(ROOT, 'README.md'), 'utf8')
      const localTry = readme.slice(readme.indexOf('### A local try'), readme.indexOf('### Your first post'))
      for (const setting of ['CONTRIBUTION_INTERVAL_SECONDS=0', 'OPERATOR_KEY=', 'METRICS_TOKEN=']) {
        assert.ok(localTry.includes(setting), `the local try sets ${setting}`)
      }
      for (const block of blocks.filter((b) => b.mode === 'run')) {
        assert.doesNotMatch(block.code, /localhost:8080|127\.0\.0\.1:8080|clr_\.\.\.|"\.\.\."/, where(block))
      }
    })

    test('a shell block on any other page of docs/ is marked with why it does not run', () => {
      const others = readdirSync(join(ROOT, 'docs'))
        .filter((name) => name.endsWith('.md') && !SESSION.includes(`docs/${name}`))
        .flatMap((name) => shellBlocks(`docs/${name}`))
      assert.deepEqual(
        others.filter((b) => b.mode !== 'skip' || b.reason.length <= 10).map(where),
        [],
        'add the page to SESSION, or mark the block <!-- doc-test: skip (why) -->',
      )
    })

    // The pinned third-party commands (npx) take minutes on a busy machine, past npm test's default timeout.
    test('every runnable command runs as written and prints what the docs show', { timeout: 900_000 }, async () => {
      const setup = blocks.find((b) => b.mode === 'setup')
      assert.ok(setup, 'the setup block of "A local try"')
      const machine = `export OPERATOR_KEY=${OPERATOR_KEY} METRICS_TOKEN=${METRICS_TOKEN} PUBLIC_BASE_URL=${t.url} DATABASE_URL=sqlite:${join(dir, 'clearing.sqlite')}`
      const setupCode = setup.code
        .replace('set -a; . ./.env; set +a', machine)
        .replace('B=http://127.0.0.1:8080', `B=${t.url}`)
      assert.notEqual(setupCode, setup.code)
      const runnable = blocks.filter((b) => b.mode !== 'skip')
      const script = runnable
        .map((b, i) => `printf '\\n@@block ${i}\\n'\n${b === setup ? setupCode : b.code}`)
        .join('\n')
      const file = join(dir, 'docs.sh')
      writeFileSync(file, script)
      let stdout = ''
      let stderr = ''
      try {
        ;({ stdout, stderr } = await run('bash', [file], {
          cwd: ROOT,
          timeout: 840_000,
          maxBuffer: 64 * 1024 * 1024,
          // The docs' `node` is the one running these tests (npm puts Node 24 first for npm test too).
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
          assert.ok(found, `${where(block)}: expected ${expected} in\n${output}\n${stderr}`)
          from += found.index + found[0].length
        }
        assert.doesNotMatch(output, /\{"error":\{"code":/, `${where(block)} answered an error:\n${output}`)
      })
    })
  },
)
