/**
 * Moves TypeScript modules with `git mv` and rewrites every relative import that reaches them (and
 * every relative import of the moved files themselves) across src, test, bench and scripts, so a
 * move is one commit of renames and import paths only, which git's rename detection follows.
 *
 *   node scripts/move-modules.ts moves.json
 *
 * moves.json maps old paths to new ones, relative to the repository root:
 * { "src/store/cases/write.ts": "src/store/cases/write.ts", ... }
 */
import { execFileSync } from 'node:child_process'
import { existsSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs'
import { dirname, join, normalize, relative } from 'node:path'

const ROOTS = ['src', 'test', 'bench', 'scripts']
// from '…', import '…', import('…'), export … from '…': the relative specifier is the second group.
const SPECIFIER = /(\bfrom\s+|\bimport\s*\(\s*|\bimport\s+)(['"])(\.{1,2}\/[^'"]+)\2/g

const moves = new Map(
  Object.entries(JSON.parse(readFileSync(process.argv[2] ?? 'moves.json', 'utf8')) as Record<string, string>).map(
    ([from, to]) => [normalize(from), normalize(to)],
  ),
)

function filesUnder(dir: string): string[] {
  if (!existsSync(dir)) return []
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name)
    if (name === 'node_modules') return []
    if (statSync(path).isDirectory()) return filesUnder(path)
    return /\.(ts|js|cjs|mjs)$/.test(name) ? [path] : []
  })
}

const where = (path: string) => moves.get(path) ?? path

function relativeSpecifier(fromFile: string, target: string): string {
  const path = relative(dirname(fromFile), target).split('\\').join('/')
  return path.startsWith('.') ? path : `./${path}`
}

const rewritten = new Map<string, string>()
for (const file of ROOTS.flatMap(filesUnder)) {
  const text = readFileSync(file, 'utf8')
  const next = text.replace(SPECIFIER, (whole, lead: string, quote: string, specifier: string) => {
    const target = normalize(join(dirname(file), specifier))
    if (!moves.has(target) && !moves.has(file)) return whole
    return `${lead}${quote}${relativeSpecifier(where(file), where(target))}${quote}`
  })
  if (next !== text) rewritten.set(file, next)
}

for (const [from, to] of moves) {
  mkdirSync(dirname(to), { recursive: true })
  execFileSync('git', ['mv', from, to])
}
for (const [file, text] of rewritten) writeFileSync(where(file), text)
console.log(`moved ${moves.size} files, rewrote imports in ${rewritten.size}`)
