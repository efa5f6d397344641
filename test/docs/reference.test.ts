import assert from 'node:assert/strict'
import { readFileSync } from 'node:fs'
import { test } from 'node:test'
import { REGENERATE, renderMcpGuide, renderReadme, renderReference } from '../../scripts/docs/reference.ts'
import { registry } from '../../src/app.ts'

const read = (path: string): string => readFileSync(new URL(`../../${path}`, import.meta.url), 'utf8')

test('docs/reference.md is what the registry renders now', async () => {
  assert.ok(read('docs/reference.md') === (await renderReference()), `docs/reference.md is stale: run ${REGENERATE}`)
})

test("the README's configuration table is what src/config.ts renders now", async () => {
  const readme = read('README.md')
  assert.ok(readme === (await renderReadme(readme)), `the README's configuration table is stale: run ${REGENERATE}`)
})

test("docs/mcp.md's tools table is what the registry renders now", async () => {
  const guide = read('docs/mcp.md')
  assert.ok(guide === (await renderMcpGuide(guide)), `the tools table of docs/mcp.md is stale: run ${REGENERATE}`)
})

test('the reference names every action, tool and error code', async () => {
  const reference = await renderReference()
  for (const { def } of registry.all) {
    assert.ok(reference.includes(`| \`${def.name}\``), def.name)
    if (def.mcp) assert.ok(reference.includes(`\`${def.mcp.name ?? def.name}\``), `tool of ${def.name}`)
  }
  for (const [code, status] of Object.entries(registry.errorTable.all())) {
    assert.match(reference, new RegExp(`\\| ${status} +\\| \`${code}\``), code)
  }
})
