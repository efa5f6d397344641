import cors from '@fastify/cors'
import helmet from '@fastify/helmet'
import type { FastifyInstance } from 'fastify'

/**
 * Reads and writes are open to any origin: no cookies are involved and credentials travel in the
 * JSON body, so a browser page gains nothing it could not do itself. Responses are JSON only, so the
 * content security policy forbids everything.
 */
export async function registerSecurity(app: FastifyInstance): Promise<void> {
  await app.register(helmet, {
    contentSecurityPolicy: { useDefaults: false, directives: { defaultSrc: ["'none'"], frameAncestors: ["'none'"] } },
    crossOriginResourcePolicy: { policy: 'cross-origin' },
    strictTransportSecurity: { maxAge: 31536000, includeSubDomains: false },
  })
  await app.register(cors, {
    origin: '*',
    methods: ['GET', 'POST', 'OPTIONS'],
    // x402 (paid services): a browser client sends PAYMENT-SIGNATURE and reads the requirement and receipt.
    allowedHeaders: [
      'Content-Type',
      'Accept',
      'MCP-Protocol-Version',
      'Last-Event-ID',
      'If-None-Match',
      'PAYMENT-SIGNATURE',
    ],
    exposedHeaders: ['Retry-After', 'X-Request-Id', 'ETag', 'PAYMENT-REQUIRED', 'PAYMENT-RESPONSE'],
    maxAge: 86400,
  })
}
