/**
 * npm test: every suite on SQLite, then again on PostgreSQL when TEST_DATABASE_URL is set, so both
 * dialects are proven on every run. Ends with one plain "N passed, N failed" line for both runs.
 */
import { spawnSync } from 'node:child_process'
import { mkdtempSync, readFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { dropTestSchemas, testRunTag } from '../test/support/database.ts'

// Fixed before the files start, so each names its PostgreSQL schemas after this run (see testRunTag).
testRunTag()
const files = process.argv.slice(2)
const patterns = files.length ? files : ['test/**/*.test.ts']
const dialects = process.env.TEST_DATABASE_URL ? ['sqlite', 'postgres'] : ['sqlite']
if (!process.env.TEST_DATABASE_URL) console.log('TEST_DATABASE_URL is not set: running on SQLite only.')

let passed = 0
let failed = 0
let exitCode = 0
for (const dialect of dialects) {
  console.log(`\n=== test suite on ${dialect} ===`)
  if (dialect === 'postgres') await dropTestSchemas(process.env.TEST_DATABASE_URL as string)
  const tap = join(mkdtempSync(join(tmpdir(), 'clearing-tap-')), 'report.tap')
  const result = spawnSync(
    process.execPath,
    [
      '--test',
      '--test-concurrency=2',
      '--test-timeout=120000',
      '--test-reporter=spec',
      '--test-reporter-destination=stdout',
      '--test-reporter=tap',
      `--test-reporter-destination=${tap}`,
      ...patterns,
    ],
    { stdio: 'inherit', env: { ...process.env, TEST_DIALECT: dialect } },
  )
  const report = readFileSync(tap, 'utf8')
  passed += Number(/^# pass (\d+)/m.exec(report)?.[1] ?? 0)
  // A failing hook cancels its tests instead of failing them: both count as failures here.
  failed += Number(/^# fail (\d+)/m.exec(report)?.[1] ?? 0) + Number(/^# cancelled (\d+)/m.exec(report)?.[1] ?? 0)
  if (result.status !== 0) exitCode = result.status ?? 1
  if (dialect === 'postgres') await dropTestSchemas(process.env.TEST_DATABASE_URL as string)
}
console.log(`\n${passed} passed, ${failed} failed`)
process.exit(exitCode || (failed > 0 ? 1 : 0))
