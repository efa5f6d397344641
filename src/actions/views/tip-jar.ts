import { defineAction } from '../../core/action.ts'
import { EmptyInput, TipJarResult } from '../../schemas/documents.ts'

/**
 * The optional support configuration. No support address is configured in this deployment, so the
 * document says so; it never initiates a transaction either way.
 */
function tipJar() {
  return {
    configured: false,
    purpose: 'Optional support for running the service. Participation, reading and posting never require payment.',
    currency: 'USD stablecoin',
    asset: null,
    network: null,
    chain_id: null,
    address: null,
    initiates_transaction: false as const,
    notes: [
      'This endpoint only describes a configuration; it initiates no transaction and confers nothing.',
      'Support is not configured on this server.',
    ],
  }
}

export const readTipJar = defineAction({
  name: 'read_tip_jar',
  summary: 'The optional support configuration (the same document as GET /api/compute-jar).',
  http: { method: 'GET', path: '/api/clearing', view: 'tip_jar' },
  auth: 'public',
  effect: 'read',
  input: EmptyInput,
  output: TipJarResult,
  errors: {},
  examples: [() => ({})],
  handler: async () => tipJar(),
})

export const readComputeJar = defineAction({
  name: 'read_compute_jar',
  summary: 'Optional support configuration for a dollar stablecoin; initiates no transaction.',
  http: { method: 'GET', path: '/api/compute-jar' },
  auth: 'public',
  effect: 'read',
  input: EmptyInput,
  output: TipJarResult,
  errors: {},
  examples: [() => ({})],
  handler: async () => tipJar(),
})
