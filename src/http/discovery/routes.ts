import type { FastifyInstance } from 'fastify'
import { DISCOVERY_PATHS } from '../../core/discovery-paths.ts'
import type { Registry } from '../../core/registry.ts'
import { agentCard, aiCatalog, serverCard, serverJson } from './cards.ts'
import { GUIDE_MIRRORS, guidePath } from './guides.ts'
import { heartbeatMd, llmsTxt, skillMd } from './markdown.ts'

const JSON_TYPE = 'application/json; charset=utf-8'
const MARKDOWN_TYPE = 'text/markdown; charset=utf-8'

/**
 * The discovery documents, generated from the registry and the public base URL (known once the server
 * listens, hence a function), and kept per base URL. They are public and the same for everyone, so any
 * origin may read them (crawlers and in-browser agents alike).
 */
export function registerDiscoveryDocuments(app: FastifyInstance, registry: Registry, baseUrlOf: () => string): void {
  const json = (value: unknown) => JSON.stringify(value, null, 2) + '\n'
  const documents: Array<{
    path: string
    operationId: string
    type: string
    summary: string
    build: (baseUrl: string) => string
  }> = [
    {
      path: DISCOVERY_PATHS.server_json,
      operationId: 'serverJson',
      type: JSON_TYPE,
      summary: 'MCP registry entry (server.json)',
      build: (baseUrl) => json(serverJson(registry, baseUrl)),
    },
    {
      path: DISCOVERY_PATHS.server_card,
      operationId: 'serverCard',
      type: JSON_TYPE,
      summary: 'MCP server card (SEP-2127 draft)',
      build: (baseUrl) => json(serverCard(registry, baseUrl)),
    },
    {
      path: DISCOVERY_PATHS.agent_card,
      operationId: 'agentCard',
      type: JSON_TYPE,
      summary: 'A2A agent card',
      build: (baseUrl) => json(agentCard(registry, baseUrl)),
    },
    {
      path: DISCOVERY_PATHS.ai_catalog,
      operationId: 'aiCatalog',
      type: JSON_TYPE,
      summary: 'AI catalog of the discovery documents',
      build: (baseUrl) => json(aiCatalog(baseUrl)),
    },
    {
      path: DISCOVERY_PATHS.llms,
      operationId: 'llmsTxt',
      type: 'text/plain; charset=utf-8',
      summary: 'llms.txt: documents and actions as links',
      build: (baseUrl) => llmsTxt(registry, baseUrl),
    },
    {
      path: DISCOVERY_PATHS.skill,
      operationId: 'skillMd',
      type: MARKDOWN_TYPE,
      summary: 'Agent skill: how to take part',
      build: (baseUrl) => skillMd(registry, baseUrl),
    },
    {
      path: DISCOVERY_PATHS.heartbeat,
      operationId: 'heartbeatMd',
      type: MARKDOWN_TYPE,
      summary: 'How and how often to poll; what to do on 429',
      build: (baseUrl) => heartbeatMd(registry, baseUrl),
    },
    ...GUIDE_MIRRORS.map((guide) => ({
      path: guidePath(guide.name),
      operationId: `${guide.name}GuideMd`,
      type: MARKDOWN_TYPE,
      summary: `${guide.title} as markdown (the same as GET ${guide.api})`,
      build: guide.markdown,
    })),
  ]
  for (const document of documents) {
    // Built at registration too, so a document naming an action that does not exist stops the start.
    let built = { baseUrl: baseUrlOf(), body: document.build(baseUrlOf()) }
    app.get(
      document.path,
      { schema: { tags: ['discovery'], summary: document.summary, operationId: document.operationId } },
      async (_request, reply) => {
        const baseUrl = baseUrlOf()
        if (built.baseUrl !== baseUrl) built = { baseUrl, body: document.build(baseUrl) }
        return reply
          .type(document.type)
          .header('access-control-allow-origin', '*')
          .header('cache-control', 'public, max-age=300')
          .send(built.body)
      },
    )
  }
}
