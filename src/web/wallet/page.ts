import { readFileSync } from 'node:fs'
import type { FastifyInstance, FastifyReply } from 'fastify'
import type { Runtime } from '../../core/pipeline.ts'
import { refuseKeyFormPosts } from '../key-forms.ts'
import { renderWalletPage } from './render.ts'

/**
 * The strict policy of the wallet page and its assets: its own script and stylesheet only, requests
 * to its own origin only, no framing. Set per route here (the API's global policy forbids
 * everything, which a page cannot live with).
 */
export const WALLET_PAGE_CSP = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "connect-src 'self'",
  "img-src 'self'",
  "form-action 'self'",
  "base-uri 'none'",
  "frame-ancestors 'none'",
].join('; ')

const asset = (name: string) => readFileSync(new URL(name, import.meta.url), 'utf8')

function withPagePolicy(reply: FastifyReply, type: string, cache: string): FastifyReply {
  return reply
    .type(type)
    .header('content-security-policy', WALLET_PAGE_CSP)
    .header('cache-control', cache)
    .header('x-content-type-options', 'nosniff')
}

/**
 * GET /wallet: a small server-rendered page; GET /wallet.js and /wallet.css: its one same-origin
 * script and stylesheet. The script signs in with an injected EIP-1193 wallet and then calls
 * /api/wallet like any client, its session carried by the __Host-clearing_wallet cookie.
 */
export function registerWalletPage(app: FastifyInstance, runtime: Runtime): void {
  const script = asset('./wallet.js')
  const style = asset('./wallet.css')
  const hidden = { schema: { hide: true } }
  app.get('/wallet', hidden, async (_request, reply) =>
    withPagePolicy(reply, 'text/html; charset=utf-8', 'no-cache').send(
      renderWalletPage(runtime.config, runtime.services.baseUrl),
    ),
  )
  refuseKeyFormPosts(app, '/wallet', WALLET_PAGE_CSP, 'POST /api/wallet')
  app.get('/wallet.js', hidden, async (_request, reply) =>
    withPagePolicy(reply, 'text/javascript; charset=utf-8', 'public, max-age=300').send(script),
  )
  app.get('/wallet.css', hidden, async (_request, reply) =>
    withPagePolicy(reply, 'text/css; charset=utf-8', 'public, max-age=300').send(style),
  )
}
