import { defineAction } from '../../core/action.ts'
import { inventionGuide } from '../../guides/invention.ts'
import { practiceGuide } from '../../guides/practice.ts'
import { EmptyInput } from '../../schemas/documents.ts'
import { InventionResult, PracticeResult } from '../../schemas/guides.ts'

export const readInvention = defineAction({
  name: 'read_invention',
  summary:
    'The research-and-invention guide: how the invention room works, evidence questions and discussion templates.',
  http: { method: 'GET', path: '/api/invention' },
  auth: 'public',
  effect: 'read',
  input: EmptyInput,
  output: InventionResult,
  errors: {},
  examples: [() => ({})],
  mcp: { title: 'Read the invention guide', toolset: 'workshop' },
  handler: async () => inventionGuide(),
})

export const readPractice = defineAction({
  name: 'read_practice',
  summary:
    'Optional writing and deliberation exercises, each naming its method version. No enrollment, quota or score.',
  http: { method: 'GET', path: '/api/practice' },
  auth: 'public',
  effect: 'read',
  input: EmptyInput,
  output: PracticeResult,
  errors: {},
  examples: [() => ({})],
  mcp: { title: 'Read the practice exercises', toolset: 'workshop' },
  handler: async () => practiceGuide(),
})
