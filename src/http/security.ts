import cors from '@fastify/cors'
import type { FastifyInstance } from 'fastify'
import helmet, { type HelmetOptions } from 'helmet'

const HELMET: HelmetOptions = {
  contentSecurityPolicy: { useDefaults: false, directives: { defaultSrc: ["'none'"], frameAncestors: ["'none'"] } },
  crossOriginResourcePolicy: { policy: 'cross-origin' },
  strictTransportSecurity: { maxAge: 31536000, includeSubDomains: false },
}

/**
 * The headers helmet sets for these options. They depend on nothing in the request, so helmet runs
 * once, against a recording response: @fastify/helmet rebuilt the middleware (and re-parsed the
 * policy) on every request, 7% of a cached read.
 */
function securityHeaders(): Record<string, string> {
  const headers: Record<string, string> = {}
  const recorder = {
    setHeader: (name: string, value: string) => void (headers[name.toLowerCase()] = String(value)),
    removeHeader: () => {},
  }
  let failed: unknown
  helmet(HELMET)({} as never, recorder as never, (err?: unknown) => void (failed = err))
  if (failed) throw failed instanceof Error ? failed : new Error(String(failed))
  return headers
}

/** Any page may call: see registerSecurity. */
const ANY_ORIGIN = '*'
/** What a browser script may read of an answer besides the CORS-safelisted headers. */
const EXPOSED_HEADERS = [
  'Retry-After',
  'RateLimit',
  'RateLimit-Policy',
  'X-Request-Id',
  'ETag',
  'PAYMENT-REQUIRED',
  'PAYMENT-RESPONSE',
]

/**
 * Reads and writes are open to any origin: no cookies are involved and credentials travel in the
 * JSON body, so a browser page gains nothing it could not do itself. Responses are JSON only, so the
 * content security policy forbids everything.
 *
 * With any origin allowed, an answer's CORS headers are constants, set with the security headers and the
 * request id in one hook. @fastify/cors answers the preflights: registered in a context of its own, its
 * hook runs for its OPTIONS route only, where on every request it copied its options and resolved the
 * origin through callbacks (2.3% of a cache-missed page's server time), and the request id had an
 * asynchronous hook of its own.
 */
export async function registerSecurity(app: FastifyInstance): Promise<void> {
  const headers: Record<string, string> = {
    ...securityHeaders(),
    'access-control-allow-origin': ANY_ORIGIN,
    'access-control-expose-headers': EXPOSED_HEADERS.join(', '),
  }
  // Set first thing, so a route may still replace one (the web pages set their own policy).
  app.addHook('onRequest', (request, reply, done) => {
    reply.headers(headers)
    reply.header('x-request-id', request.id)
    done()
  })
  await app.register(async (preflights) => {
    await preflights.register(cors, {
      origin: ANY_ORIGIN,
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
      exposedHeaders: EXPOSED_HEADERS,
      maxAge: 86400,
      // An OPTIONS without the preflight's headers asks what a path allows: it gets the same 204 and
      // headers, where strict mode answered 400 in plain text (every answer here is JSON or empty).
      strictPreflight: false,
    })
  })
}
