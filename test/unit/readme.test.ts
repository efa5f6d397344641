import assert from 'node:assert/strict'
import { readFileSync } from 'node:fs'
import { test } from 'node:test'
import { ENV } from '../../src/config.ts'

test('the README documents every environment variable of the runtime contract', () => {
  const readme = readFileSync(new URL('../../README.md', import.meta.url), 'utf8')
  for (const [name] of ENV) assert.ok(readme.includes(`\`${name}\``), `${name} is in the README`)
  assert.ok(readme.includes('npm ci && npm start'))
  assert.ok(readme.includes('npm test'))
})
