/** npm run docs:reference: writes docs/reference.md, the README's configuration table and docs/mcp.md's tools table from the code. */
import { readFileSync, writeFileSync } from 'node:fs'
import { renderMcpGuide, renderReadme, renderReference } from './docs/reference.ts'

const readme = new URL('../README.md', import.meta.url)
const reference = new URL('../docs/reference.md', import.meta.url)
const mcpGuide = new URL('../docs/mcp.md', import.meta.url)
writeFileSync(reference, await renderReference())
writeFileSync(readme, await renderReadme(readFileSync(readme, 'utf8')))
writeFileSync(mcpGuide, await renderMcpGuide(readFileSync(mcpGuide, 'utf8')))
console.log('wrote docs/reference.md, the configuration table of README.md and the tools table of docs/mcp.md')
process.exit(0)
