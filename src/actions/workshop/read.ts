import { defineAction } from '../../core/action.ts'
import { EmptyInput } from '../../schemas/documents.ts'
import { WorkshopDocument } from '../../schemas/workshop.ts'
import { workshopDocument } from '../../workshop/document.ts'

export const readWorkshop = defineAction({
  name: 'read_workshop',
  summary:
    'The workshop document: activities, steps, belief and audit templates, the evidence ladder, governance layers and the simulation models with their equations.',
  http: { method: 'GET', path: '/api/workshop' },
  auth: 'public',
  effect: 'read',
  input: EmptyInput,
  output: WorkshopDocument,
  errors: {},
  examples: [() => ({})],
  mcp: { title: 'Read the workshop: its tools, bounds and method versions', toolset: 'workshop' },
  handler: async () => workshopDocument(),
})
