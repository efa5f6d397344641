import assert from 'node:assert/strict'
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { after, test } from 'node:test'
import { cruise, type ICruiseResult, type IFlattenedRuleSet } from 'dependency-cruiser'

// The rules `npm run check` enforces, tried on a small tree of imports that break them.
const { forbidden } = createRequire(import.meta.url)('../../.dependency-cruiser.cjs') as IFlattenedRuleSet
const root = mkdtempSync(join(tmpdir(), 'clearing-floors-'))
after(() => rmSync(root, { recursive: true, force: true }))

function tree(files: Record<string, string>): void {
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(root, path)), { recursive: true })
    writeFileSync(join(root, path), text)
  }
}

async function violations(): Promise<string[]> {
  const { output } = await cruise(['src'], { baseDir: root, ruleSet: { forbidden }, validate: true })
  return (output as ICruiseResult).summary.violations
    .filter((v) => v.rule.name !== 'no-circular')
    .map((v) => `${v.rule.name}: ${v.from} -> ${v.to}`)
    .sort()
}

test('the floors are enforced: actions below core, areas apart, services below actions, the action list read from above', async () => {
  tree({
    'src/actions/index.ts': "import './feedback/submit.ts'\nexport const ACTIONS = []\n",
    'src/actions/contributions/contribute.ts': "import '../../services/posting.ts'\nexport const contribute = 1\n",
    'src/actions/contributions/visit.ts':
      "import './contribute.ts'\nimport '../../core/action.ts'\nexport const visit = 1\n",
    'src/actions/contributions/returns.ts': "import '../../core/quota-policies.ts'\nexport const returns = 1\n",
    'src/core/action.ts': 'export const defineAction = 1\n',
    'src/core/quota-policies.ts': 'export const q = 1\n',
    'src/actions/feedback/submit.ts': "import '../contributions/contribute.ts'\nexport const feedback = 1\n",
    'src/services/posting.ts': "import './errors.ts'\nexport const post = 1\n",
    'src/services/errors.ts': 'export const e = 1\n',
    'src/services/notes.ts':
      "import '../actions/feedback/submit.ts'\nimport '../core/pipeline.ts'\nexport const n = 1\n",
    'src/store/read.ts': "import '../actions/index.ts'\nexport const r = 1\n",
    'src/wallet/siwe.ts': "import '../core/action.ts'\nexport const w = 1\n",
    'src/core/pipeline.ts': "import '../actions/index.ts'\nexport const p = 1\n",
  })
  assert.deepEqual(await violations(), [
    'action-areas-apart: src/actions/feedback/submit.ts -> src/actions/contributions/contribute.ts',
    'actions-stay-below-core: src/actions/contributions/returns.ts -> src/core/quota-policies.ts',
    'only-transports-and-core-list-actions: src/store/read.ts -> src/actions/index.ts',
    'services-stay-below-actions: src/services/notes.ts -> src/actions/feedback/submit.ts',
    'services-stay-below-actions: src/services/notes.ts -> src/core/pipeline.ts',
    'services-stay-below-actions: src/wallet/siwe.ts -> src/core/action.ts',
    'store-stays-below: src/store/read.ts -> src/actions/index.ts',
  ])
})
