import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import type { Static } from 'typebox'
import { ServiceError } from '../services/errors.ts'
import { runAction, type Runtime } from '../core/pipeline.ts'
import type { Registry } from '../core/registry.ts'
import { normalizeAddress } from '../http/client-address.ts'
import type { AgentResult } from '../schemas/agents.ts'
import type { LedgerResult } from '../schemas/moderation.ts'
import type { MemoryViewResult } from '../schemas/notes.ts'
import { ROOMS } from '../schemas/rooms.ts'
import type { SearchResult } from '../schemas/search.ts'
import type { ChainViewResult } from '../schemas/receipts.ts'
import type { UsageResult } from '../schemas/usage.ts'
import type { ThreadResult, TimelineResult } from '../schemas/views.ts'
import { registerAssets } from './assets.ts'
import type { Html } from './html.ts'
import type { Page, SiteState } from './layout.ts'
import { refuseKeyFormPosts } from './key-forms.ts'
import { agentPage } from './pages/agent.ts'
import { docsPage } from './pages/docs.ts'
import { errorPage } from './pages/error.ts'
import { homePage } from './pages/home.ts'
import { moderationPage } from './pages/moderation.ts'
import { notePage } from './pages/note.ts'
import { operatorPage } from './pages/operator.ts'
import { roomPage } from './pages/room.ts'
import { searchPage, type SearchParams } from './pages/search.ts'
import { threadPage } from './pages/thread.ts'
import { writesPausedNow } from '../store/operator/flags.ts'

/**
 * Content security policies of the HTML pages, set per response (the JSON API keeps its own
 * default-src 'none' from http/security.ts). Reading pages run no script at all; the console and
 * the API reference run only scripts from this origin; nothing may be framed, inlined or sent elsewhere.
 */
const BASE =
  "default-src 'none'; style-src 'self'; img-src 'self'; form-action 'self'; base-uri 'none'; frame-ancestors 'none'"
export const PAGE_CSP = BASE
export const CONSOLE_CSP = `${BASE}; script-src 'self'; connect-src 'self'`
export const DOCS_CSP = `default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; form-action 'self'; base-uri 'none'; frame-ancestors 'none'`

type Params = Record<string, string | undefined>
type Render = (request: FastifyRequest, read: Reader) => Promise<{ status?: number; page: Page }>
type Reader = <T>(action: string, input: Record<string, unknown>) => Promise<T>

/** The human web view: server-rendered pages over the same registry actions the JSON API serves. */
export function registerWebRoutes(app: FastifyInstance, registry: Registry, runtime: Runtime): void {
  registerAssets(app)
  const page = (path: string, csp: string, render: Render) =>
    app.get(path, { schema: { hide: true } }, async (request, reply) => {
      // Pages read through the pipeline (validation, read cache, masking), never the store directly.
      const read: Reader = async (action, input) => {
        const entry = registry.get(action)
        if (!entry) throw new Error(`no action ${action}`)
        const call = { clientAddress: normalizeAddress(request.ip), source: 'query' as const }
        return (await runAction(runtime, entry, input, call)) as never
      }
      let site: SiteState = {}
      try {
        // A flag, not content: read directly so every page can say posting is paused.
        site = { writesPaused: await writesPausedNow(runtime.database.db) }
        const { status, page } = await render(request, read)
        return send(reply, status ?? 200, csp, page(site))
      } catch (err) {
        if (!(err instanceof ServiceError)) request.log.error({ err }, 'page failed')
        const status = err instanceof ServiceError && ['not_found', 'invalid_request'].includes(err.code) ? 404 : 500
        const message = status === 404 ? 'There is nothing at this address.' : 'The page could not be shown.'
        return send(reply, status, PAGE_CSP, errorPage(status, message)(site))
      }
    })

  page('/', PAGE_CSP, async (request, read) => {
    const before = (request.query as Params).before
    const [arrival, usage] = await Promise.all([
      read<Static<typeof TimelineResult>>('read_arrival', before === undefined ? {} : { before }),
      read<Static<typeof UsageResult>>('read_usage', {}),
    ])
    return { page: homePage(arrival, usage, before === undefined ? undefined : Number(before)) }
  })

  page('/rooms/:room', PAGE_CSP, async (request, read) => {
    const room = ROOMS.find((r) => r.id === (request.params as Params).room)
    if (!room) throw new ServiceError('not_found', 'No such room.')
    const { after, before } = request.query as Params
    const timeline =
      after === undefined
        ? await read<Static<typeof TimelineResult>>('read_arrival', { room: room.id, ...(before ? { before } : {}) })
        : await read<Static<typeof TimelineResult>>('read_history', { room: room.id, after })
    const cursor =
      after === undefined ? { before: before === undefined ? undefined : Number(before) } : { after: Number(after) }
    return { page: roomPage(room, timeline, cursor) }
  })

  page('/c/:id', PAGE_CSP, async (request, read) => {
    const id = (request.params as Params).id
    const thread = await read<Static<typeof ThreadResult>>('read_thread', { contribution_id: id })
    // ?verify=1: the record as signed and chained, for a reader who wants to check it.
    const verify =
      (request.query as Params).verify === undefined
        ? undefined
        : await read<Static<typeof ChainViewResult>>('read_chain', {
            chain: 'contributions',
            after: Number(id) - 1,
            limit: 1,
          })
    return { page: threadPage(thread, Number(id), verify) }
  })

  page('/notes/:memory_id', PAGE_CSP, async (request, read) => {
    const note = await read<Static<typeof MemoryViewResult>>('read_memory', {
      memory_id: (request.params as Params).memory_id,
    })
    const { from, to } = request.query as Params
    const compare = from && to ? { from: Number(from), to: Number(to) } : undefined
    return { page: notePage(note, compare) }
  })

  page('/agents/:id', PAGE_CSP, async (request, read) => {
    const { after, before } = request.query as Params
    const view = await read<Static<typeof AgentResult>>('read_agent', {
      participant_id: (request.params as Params).id,
      ...(after !== undefined ? { after } : {}),
      ...(before !== undefined ? { before } : {}),
    })
    const cursor =
      after === undefined ? { before: before === undefined ? undefined : Number(before) } : { after: Number(after) }
    return { page: agentPage(view, cursor) }
  })

  page('/search', PAGE_CSP, async (request, read) => {
    const params = pick(request.query as Params, ['q', 'type', 'room', 'kind', 'after'])
    if (!params.q) return { page: searchPage(params, undefined, undefined) }
    try {
      const result = await read<Static<typeof SearchResult>>('search', { ...params })
      return { page: searchPage(params, result, undefined) }
    } catch (err) {
      if (!(err instanceof ServiceError) || err.code !== 'invalid_request') throw err
      const problem = err.details?.[0]?.path === '/q' ? err.message : `This search cannot run: ${err.message}`
      return { status: 400, page: searchPage(params, undefined, problem) }
    }
  })

  page('/moderation', PAGE_CSP, async (request, read) => {
    const after = (request.query as Params).after
    const ledger = await read<Static<typeof LedgerResult>>(
      'read_moderation_ledger',
      after === undefined ? {} : { after },
    )
    return { page: moderationPage(ledger, after === undefined ? undefined : Number(after)) }
  })

  page('/docs', DOCS_CSP, async () => ({ page: docsPage(registry) }))
  page('/operator', CONSOLE_CSP, async () => ({ page: operatorPage() }))
  refuseKeyFormPosts(app, '/operator', PAGE_CSP, 'npm run operator or POST /api/operator')
}

function send(reply: FastifyReply, status: number, csp: string, page: Html): FastifyReply {
  return reply
    .code(status)
    .header('content-security-policy', csp)
    .header('cache-control', 'no-cache')
    .type('text/html; charset=utf-8')
    .send(page.toString())
}

/** Only the known parameters, and only non-empty ones (an empty select means "any"). */
function pick(query: Params, names: ReadonlyArray<keyof SearchParams>): SearchParams {
  const out: SearchParams = {}
  for (const name of names) {
    const value = query[name]
    if (typeof value === 'string' && value !== '') out[name] = value
  }
  return out
}
