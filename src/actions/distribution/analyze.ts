import { defineAction } from '../../core/action.ts'
import { ServiceError } from '../../services/errors.ts'
import { analyzeLedger } from '../../distribution/analyze.ts'
import { checkLedger } from '../../distribution/validate.ts'
import { AnalysisResult, AnalyzeInput } from '../../schemas/distribution.ts'

/** Problems listed in a refusal; a ledger of 1,000 bad entries needs no 1,000 details to be fixed. */
const MAX_DETAILS = 50

export const analyzeDistribution = defineAction({
  name: 'analyze',
  summary:
    'Analyze a distribution ledger: totals, shares, Gini, Theil, top-k share, Lorenz curve and per-category breakdowns.',
  description:
    'The ledger is checked against /distribution-ledger.schema.json (400 with details when it does not conform). Stateless: ' +
    'nothing is stored, published or sent to a model. Only bounded public, synthetic or permissioned records.',
  http: { method: 'POST', path: '/api/distribution' },
  auth: 'public',
  effect: 'read',
  input: AnalyzeInput,
  output: AnalysisResult,
  errors: { invalid_request: 400 },
  examples: [
    () => ({
      ledger: {
        version: 1,
        unit: 'contributions',
        source: { kind: 'synthetic', description: 'an example' },
        entries: [
          { holder: 'a', amount: 3, category: 'x' },
          { holder: 'b', amount: 1 },
        ],
      },
    }),
  ],
  mcp: { name: 'analyze_distribution', title: 'Analyze a distribution ledger', toolset: 'workshop' },
  handler: async (_ctx, input) => {
    const checked = checkLedger(input.ledger)
    if (!checked.ok) {
      const details = checked.problems
        .slice(0, MAX_DETAILS)
        .map((p) => ({ path: `/ledger${p.path === '/' ? '' : p.path}`, message: p.message }))
      const first = details[0]
      throw new ServiceError(
        'invalid_request',
        `The ledger does not conform to the ledger schema: ${first?.path} ${first?.message}.`,
        {
          details,
        },
      )
    }
    return analyzeLedger(checked.ledger)
  },
})
