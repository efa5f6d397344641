import { defineAction } from '../../core/action.ts'
import { ServiceError } from '../../services/errors.ts'
import { catalogTerms } from '../../payments/catalog.ts'
import { EmptyInput } from '../../schemas/documents.ts'
import { QuoteInput, QuoteResult, ServicesDocument } from '../../schemas/services.ts'
import { findService, paymentsInfo, serviceView } from './common.ts'

const NOTES = [
  'Paid services are optional. Participation, reading and posting never need a payment, and no payment unlocks them.',
  'To buy: sign in with a wallet (POST /api/wallet), accept_agreement with terms.version, order (HTTP 402 with an x402 v2 PAYMENT-REQUIRED header), then pay with the PAYMENT-SIGNATURE header.',
  'An order keeps the payment requirement it was made with: every later answer for it repeats the same bytes.',
]

export const readServices = defineAction({
  name: 'read_services',
  summary: 'Paid services: prices, terms and whether payments are active.',
  http: { method: 'GET', path: '/api/services' },
  auth: 'public',
  effect: 'read',
  input: EmptyInput,
  output: ServicesDocument,
  errors: {},
  examples: [() => ({})],
  mcp: { title: 'Read the paid services and their terms', toolset: 'wallet' },
  handler: async (ctx) => ({
    payments: paymentsInfo(ctx),
    terms: catalogTerms(ctx.config.services),
    services: ctx.config.services.map(serviceView),
    notes: NOTES,
  }),
})

export const quote = defineAction({
  name: 'quote',
  summary: 'The price of one service in USDC on Base, its payee and the terms version to accept.',
  http: { method: 'POST', path: '/api/services' },
  auth: 'public',
  effect: 'read',
  input: QuoteInput,
  output: QuoteResult,
  errors: { payments_inactive: 403, unknown_service: 400 },
  examples: [() => ({ service_id: 'review' })],
  handler: async (ctx, input) => {
    const payments = paymentsInfo(ctx)
    if (!payments.active) throw new ServiceError('payments_inactive', 'Paid services are not active on this server.')
    const service = findService(ctx, input.service_id)
    return {
      service: serviceView(service),
      payments,
      terms_version: catalogTerms(ctx.config.services).version,
      agreement_required: true as const,
    }
  },
})
