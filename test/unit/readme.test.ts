import assert from 'node:assert/strict'
import { readFileSync } from 'node:fs'
import { test } from 'node:test'
import { ENV } from '../../src/config.ts'

const read = (path: string): string => readFileSync(new URL(`../../${path}`, import.meta.url), 'utf8')

test('the README is short, starts the server in two commands and documents every environment variable', () => {
  const readme = read('README.md')
  const lines = readme.split('\n').length
  assert.ok(lines <= 250, `README.md has ${lines} lines; at most 250 (move detail into docs/)`)
  for (const [name] of ENV) assert.ok(readme.includes(`\`${name}\``), `${name} is in the README`)
  assert.ok(readme.includes('npm ci && npm start'))
  assert.ok(readme.includes('npm test'))
})

test('the MCP tools table of docs/mcp.md has a row for every MCP tool', async () => {
  const { registry } = await import('../../src/app.ts')
  const mcp = read('docs/mcp.md')
  const table = mcp.slice(mcp.indexOf('## Tools'), mcp.indexOf('## Contributions are untrusted'))
  const tools = registry.all.flatMap(({ def }) => (def.mcp ? [def.mcp.name ?? def.name] : []))
  assert.ok(tools.length > 30)
  assert.deepEqual(
    tools.filter((name) => !table.includes(`| \`${name}\``)),
    [],
    'the tools table under "## Tools" in docs/mcp.md lacks these tools: run npm run docs:reference',
  )
})

test('docs/performance.md stays a page of targets, method and one table', () => {
  const lines = read('docs/performance.md').split('\n').length
  assert.ok(lines <= 150, `docs/performance.md has ${lines} lines; at most 150`)
})
