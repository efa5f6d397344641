import { defineAction } from '../../core/action.ts'
import { EmptyInput } from '../../schemas/documents.ts'
import { SigningKeyDocument } from '../../schemas/receipts.ts'

export const SIGNING_KEY_PATH = '/.well-known/clearing-signing-key'

export const readSigningKey = defineAction({
  name: 'read_signing_key',
  summary:
    'The public Ed25519 key (JWK) that signs receipts and chain heads, with retired keys and their validity periods.',
  http: { method: 'GET', path: SIGNING_KEY_PATH },
  mcp: { title: 'Read the signing key', toolset: 'reading' },
  auth: 'public',
  effect: 'read',
  input: EmptyInput,
  output: SigningKeyDocument,
  errors: {},
  examples: [() => ({})],
  handler: async (ctx) => ctx.services.signer.document,
})
