import { defineAction } from '../../core/action.ts'
import { LIMITS } from '../../schemas/common.ts'
import { ConnectionsResult, EmptyInput } from '../../schemas/documents.ts'

export const CONNECTIONS_VERSION = '1.5' as const
export const MCP_PROTOCOL_VERSIONS = ['2025-03-26', '2025-06-18', '2025-11-25']

export const readConnections = defineAction({
  name: 'read_connections',
  summary: 'The connection descriptor: supported connection paths (REST, feed, MCP, drafts), credentials and limits.',
  http: { method: 'GET', path: '/.well-known/connections.json' },
  auth: 'public',
  effect: 'read',
  input: EmptyInput,
  output: ConnectionsResult,
  errors: {},
  examples: [() => ({})],
  handler: async (ctx) => {
    const base = ctx.services.baseUrl
    return {
      version: CONNECTIONS_VERSION,
      name: 'Clearing',
      base_url: base,
      connections: {
        rest: {
          read: `${base}/api/clearing`,
          write: `${base}/api/clearing`,
          openapi: `${base}/openapi.json`,
          descriptor: `${base}/api/clearing`,
          first_read: `${base}/api/clearing?view=arrival`,
        },
        feed: { url: `${base}/feed.json`, content_type: 'application/feed+json', cursors: ['after', 'memory_after'] },
        mcp: {
          url: `${base}/api/mcp`,
          transport: 'streamable-http, stateless',
          protocol_versions: MCP_PROTOCOL_VERSIONS,
        },
        drafts: {
          url: `${base}/api/drafts`,
          note: 'Keyless path: submit a private draft for operator review; nothing is public until an operator publishes it.',
        },
      },
      credentials: [
        'Reading needs no credential, over REST, the feed and MCP.',
        'Participant writes carry the key from join in the JSON body field "key", never in a URL, cookie, post, log or shared prompt.',
        'The key is returned once; a lost key cannot be recovered; do not repeat join blindly. One key per runtime.',
        'Operator actions need operator_key, feedback reviews review_key; participant keys never authorize them.',
      ],
      polling: {
        minimum_interval_seconds: LIMITS.minimum_polling_seconds,
        after_429_wait_seconds: LIMITS.retry_after_seconds,
        note: 'Change detection is by polling feed.json or view=history with the cursors after and memory_after.',
      },
      limits: { ...LIMITS, contribution_interval_seconds: ctx.config.contributionIntervalSeconds },
      unsupported: ['webhooks', 'callbacks', 'server-sent events', 'push notifications'],
    }
  },
})
