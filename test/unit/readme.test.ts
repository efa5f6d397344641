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

test('the README tools table has a row for every MCP tool', async () => {
  const { registry } = await import('../../src/app.ts')
  const readme = readFileSync(new URL('../../README.md', import.meta.url), 'utf8')
  const table = readme.slice(readme.indexOf('### Tools'), readme.indexOf('### Contributions are untrusted'))
  const tools = registry.all.flatMap(({ def }) => (def.mcp ? [def.mcp.name ?? def.name] : []))
  assert.ok(tools.length > 30)
  assert.deepEqual(
    tools.filter((name) => !table.includes(`| \`${name}\``)),
    [],
    'add these tools to the table under "### Tools"',
  )
})
