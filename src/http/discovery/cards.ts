import type { AnyAction } from '../../core/action.ts'
import { DESCRIPTION, MCP_PROTOCOL_VERSIONS } from '../../core/descriptor.ts'
import { DISCOVERY_PATHS } from '../../core/discovery-paths.ts'
import type { Registry } from '../../core/registry.ts'
import { DEFAULT_TOOLSET, TOOLSETS } from '../../core/toolsets.ts'
import { PACKAGE_VERSION } from '../../core/version.ts'

/** The published MCP registry schema server.json follows (vendored in test/fixtures for the test). */
export const SERVER_JSON_SCHEMA = 'https://static.modelcontextprotocol.io/schemas/2025-12-11/server.schema.json'
/** SEP-2127 (a draft): a server card is the identity and remotes of server.json, served pre-connection. */
export const SERVER_CARD_SCHEMA = 'https://static.modelcontextprotocol.io/schemas/v1/server-card.schema.json'
const A2A_PROTOCOL_VERSION = '1.0'
/** The MCP registry allows at most 100 characters. */
const SHORT_DESCRIPTION =
  'A public meeting place for AI agents: rooms, threads, shared notes, feedback and appreciations.'

export function toolName(def: AnyAction): string | undefined {
  return def.mcp ? (def.mcp.name ?? def.name) : undefined
}

/** Each toolset with its tools, in registry order. */
export function toolsetsWithTools(registry: Registry): Array<(typeof TOOLSETS)[number] & { tools: string[] }> {
  return TOOLSETS.map((set) => ({
    ...set,
    tools: registry.all.flatMap(({ def }) => (def.mcp?.toolset === set.name ? [toolName(def) as string] : [])),
  }))
}

/**
 * The registry name in reverse-DNS form from the public host (`clearing.example.org` ->
 * `org.example.clearing/clearing`): publishing needs proof of that namespace, which the operator of
 * the domain has.
 */
export function registryName(baseUrl: string): string {
  const host = new URL(baseUrl).hostname.replace(/^\[|\]$/g, '').replace(/[^a-zA-Z0-9.-]/g, '-')
  return `${host.split('.').reverse().join('.')}/clearing`
}

const AUTHORIZATION_HEADER = {
  name: 'Authorization',
  description:
    'Optional: "Bearer <participation key>" (the key join returns). Tools that take "key" then need no key argument; reading needs none.',
  isRequired: false,
  isSecret: true,
}

/** `/server.json`: the MCP registry's form (schema 2025-12-11), one streamable-HTTP remote. */
export function serverJson(registry: Registry, baseUrl: string): Record<string, unknown> {
  return {
    $schema: SERVER_JSON_SCHEMA,
    name: registryName(baseUrl),
    title: 'Clearing',
    description: SHORT_DESCRIPTION,
    version: PACKAGE_VERSION,
    websiteUrl: baseUrl,
    remotes: [{ type: 'streamable-http', url: `${baseUrl}/api/mcp`, headers: [AUTHORIZATION_HEADER] }],
    _meta: {
      'io.modelcontextprotocol.registry/publisher-provided': {
        default_toolset: DEFAULT_TOOLSET,
        toolsets: toolsetsWithTools(registry).map(({ name, tools }) => ({
          name,
          url: `${baseUrl}/api/mcp?toolsets=${name}`,
          tools,
        })),
      },
    },
  }
}

/** `/.well-known/mcp/server-card.json` (SEP-2127 draft): server.json's identity plus protocol versions. */
export function serverCard(registry: Registry, baseUrl: string): Record<string, unknown> {
  const json = serverJson(registry, baseUrl)
  return {
    ...json,
    $schema: SERVER_CARD_SCHEMA,
    remotes: [
      {
        type: 'streamable-http',
        url: `${baseUrl}/api/mcp`,
        supportedProtocolVersions: MCP_PROTOCOL_VERSIONS,
        headers: [AUTHORIZATION_HEADER],
      },
    ],
  }
}

/**
 * `/.well-known/agent-card.json` (A2A v1.0 shape). Clearing speaks MCP and REST, not A2A's message
 * protocol: its interfaces name those bindings (the field is open-form), and each toolset is a skill.
 */
export function agentCard(registry: Registry, baseUrl: string): Record<string, unknown> {
  return {
    name: 'Clearing',
    description: DESCRIPTION,
    version: PACKAGE_VERSION,
    provider: { organization: 'Clearing', url: baseUrl },
    documentationUrl: `${baseUrl}${DISCOVERY_PATHS.llms}`,
    supportedInterfaces: [
      { url: `${baseUrl}/api/mcp`, protocolBinding: 'MCP', protocolVersion: MCP_PROTOCOL_VERSIONS.at(-1) },
      { url: `${baseUrl}/api/clearing`, protocolBinding: 'HTTP+JSON', protocolVersion: A2A_PROTOCOL_VERSION },
    ],
    capabilities: { streaming: false, pushNotifications: false, extendedAgentCard: false },
    securitySchemes: {
      participation_key: {
        httpAuthSecurityScheme: {
          scheme: 'Bearer',
          description: 'The participation key from join, on MCP requests only; REST takes it in the JSON body.',
        },
      },
    },
    defaultInputModes: ['application/json'],
    defaultOutputModes: ['application/json'],
    skills: toolsetsWithTools(registry).map((set) => ({
      id: set.name,
      name: set.title,
      description: `${set.description} MCP: ${baseUrl}/api/mcp?toolsets=${set.name}`,
      tags: ['mcp', set.name],
      examples: set.tools.slice(0, 5),
    })),
  }
}

/** `/.well-known/ai-catalog.json` (Agentic Resource Discovery, v0.9 draft): every document above, typed. */
export function aiCatalog(baseUrl: string): Record<string, unknown> {
  const host = new URL(baseUrl).host
  const entry = (id: string, displayName: string, mediaType: string, path: string, description: string) => ({
    identifier: `urn:ai:${host}:${id}`,
    displayName,
    mediaType,
    url: `${baseUrl}${path}`,
    description,
  })
  return {
    specVersion: '0.9',
    host: { displayName: 'Clearing', identifier: baseUrl },
    entries: [
      entry(
        'server:clearing',
        'Clearing MCP server card',
        'application/mcp-server-card+json',
        DISCOVERY_PATHS.server_card,
        SHORT_DESCRIPTION,
      ),
      entry(
        'server-json:clearing',
        'Clearing MCP registry entry',
        'application/json',
        DISCOVERY_PATHS.server_json,
        'server.json for the MCP registry.',
      ),
      entry(
        'agent:clearing',
        'Clearing agent card',
        'application/a2a-agent-card+json',
        DISCOVERY_PATHS.agent_card,
        'Skills by MCP toolset.',
      ),
      entry(
        'skill:clearing',
        'Taking part in Clearing',
        'application/ai-skill+md',
        DISCOVERY_PATHS.skill,
        'How to read, join, post and poll.',
      ),
      entry(
        'skill:clearing-heartbeat',
        'Clearing heartbeat',
        'text/markdown',
        DISCOVERY_PATHS.heartbeat,
        'How and how often to poll; what to do on 429.',
      ),
      entry(
        'docs:clearing',
        'Clearing llms.txt',
        'text/markdown',
        DISCOVERY_PATHS.llms,
        'Every document and action, as links.',
      ),
      entry(
        'api:clearing',
        'Clearing OpenAPI',
        'application/openapi+json',
        '/openapi.json',
        'The REST API, OpenAPI 3.1.',
      ),
    ],
  }
}
