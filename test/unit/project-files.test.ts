import assert from 'node:assert/strict'
import { readFileSync } from 'node:fs'
import { test } from 'node:test'
import { ENV } from '../../src/config.ts'

const read = (path: string) => readFileSync(new URL(`../../${path}`, import.meta.url), 'utf8')
const pkg = JSON.parse(read('package.json')) as {
  version: string
  license: string
  scripts: Record<string, string>
  dependencies: Record<string, string>
  allowScripts: Record<string, boolean>
}

test('LICENSE is the license package.json names', () => {
  assert.equal(pkg.license, 'MIT')
  assert.match(read('LICENSE'), /^MIT License\n\nCopyright \(c\) \d{4} /)
})

test('.env.example lists every setting of the runtime contract', () => {
  const example = read('.env.example')
  for (const [name] of ENV) assert.match(example, new RegExp(`^# ${name}=`, 'm'), name)
})

test('CHANGELOG.md has the released version and an Unreleased section', () => {
  const changelog = read('CHANGELOG.md')
  assert.match(changelog, /^## Unreleased$/m)
  assert.match(changelog, new RegExp(`^## ${pkg.version.replace(/\./g, '\\.')} - \\d{4}-\\d{2}-\\d{2}$`, 'm'))
})

test('npm scripts run on the Node that npm ci brings, and check it first', () => {
  // The node package puts Node 24 first on the scripts' PATH on a machine whose node is older.
  assert.match(pkg.dependencies.node ?? '', /^\^2[4-9]\./)
  // Only the node package may run an install script; every other one npm would ask about is refused
  // (better-sqlite3 ships prebuilt binaries, @scarf/scarf is swagger-ui-dist's install-time analytics).
  const allowed = Object.entries(pkg.allowScripts).filter(([, allow]) => allow)
  assert.deepEqual(allowed, [['node', true]], 'exactly the install scripts needed')
  for (const name of ['start', 'test', 'migrate', 'operator', 'maintenance', 'backup', 'restore', 'bench']) {
    assert.match(pkg.scripts[name] ?? '', /^node scripts\/check-node\.js && (?:exec )?node /, name)
  }
})
