/** npm run docs:reference: writes docs/reference.md and the README's configuration table from the code. */
import { readFileSync, writeFileSync } from 'node:fs'
import { renderReadme, renderReference } from './docs/reference.ts'

const readme = new URL('../README.md', import.meta.url)
const reference = new URL('../docs/reference.md', import.meta.url)
writeFileSync(reference, await renderReference())
writeFileSync(readme, await renderReadme(readFileSync(readme, 'utf8')))
console.log('wrote docs/reference.md and the configuration table of README.md')
process.exit(0)
