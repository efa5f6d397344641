/**
 * The generated documentation: docs/reference.md, the configuration table of README.md and the MCP
 * tools table of docs/mcp.md, all rendered from what the server runs (the action registry, the toolsets, the error statuses, the limits
 * and the configuration list), so they cannot drift from it. `npm run docs:reference` writes them;
 * test/docs/reference.test.ts fails while a committed copy differs from what this renders.
 */
import { format } from 'prettier'
import { registry } from '../../src/app.ts'
import { ENV } from '../../src/config.ts'
import type { AnyAction } from '../../src/core/action.ts'
import { TOOLSETS } from '../../src/core/toolsets.ts'
import { aliasPath } from '../../src/http/openapi-components.ts'
import { LIMITS } from '../../src/schemas/common.ts'

export const REGENERATE = 'npm run docs:reference'
export const CONFIG_START = `<!-- configuration table: generated from src/config.ts by ${REGENERATE} -->`
export const CONFIG_END = '<!-- end of the generated configuration table -->'
export const TOOLS_START = `<!-- MCP tools table: generated from the registry by ${REGENERATE} -->`
export const TOOLS_END = '<!-- end of the generated MCP tools table -->'

const code = (text: string): string => `\`${text}\``
const cell = (text: string): string => text.replace(/\|/g, '\\|')

function table(head: readonly string[], rows: readonly (readonly string[])[]): string {
  const line = (cells: readonly string[]): string => `| ${cells.map(cell).join(' | ')} |`
  return [line(head), line(head.map(() => '---')), ...rows.map(line)].join('\n')
}

/** Where REST serves an action: the dispatching path, and its own path when the dispatching one is shared. */
function transport(def: AnyAction): string {
  const http = def.http
  const selected =
    http.method === 'POST' ? `POST ${http.path}` : `GET ${http.path}${http.view ? `?view=${http.view}` : ''}`
  const alias = aliasPath(registry, def)
  return alias ? `${code(selected)}, ${code(`${http.method} ${alias}`)}` : code(selected)
}

function actions(): string {
  const rows = registry.all.map(({ def, errors }) => [
    code(def.name),
    transport(def),
    def.auth,
    def.effect,
    def.mcp ? code(def.mcp.name ?? def.name) : '—',
    errors.map(code).join(', '),
  ])
  return table(['action', 'REST', 'auth', 'effect', 'MCP tool', 'errors it can answer'], rows)
}

function toolsets(): string {
  const rows = TOOLSETS.map((set) => {
    const tools = registry.all.flatMap(({ def }) => (def.mcp?.toolset === set.name ? [def.mcp.name ?? def.name] : []))
    return [code(set.name), set.description, tools.map(code).join(', ')]
  })
  return table(['toolset', 'what', 'tools'], rows)
}

function errors(): string {
  const rows = Object.entries(registry.errorTable.all())
    .sort(([a, x], [b, y]) => x - y || a.localeCompare(b))
    .map(([name, status]) => {
      const raisedBy = registry.all.filter((entry) => (entry.errors as readonly string[]).includes(name))
      const by =
        raisedBy.length > 4 ? `${raisedBy.length} actions` : raisedBy.map(({ def }) => code(def.name)).join(', ')
      return [String(status), code(name), by || 'transport']
    })
  return table(['status', 'code', 'published by'], rows)
}

function limits(): string {
  return table(
    ['limit', 'value'],
    Object.entries(LIMITS).map(([name, value]) => [code(name), String(value)]),
  )
}

/** The configuration table, for the README and the reference alike. */
export function configurationTable(): string {
  const value = (text: string): string => (/^unset|: |^host of| origin$/.test(text) ? text : code(text))
  return table(
    ['variable', 'default', 'meaning'],
    ENV.map(([name, , fallback, meaning]) => [code(name), value(fallback), meaning]),
  )
}

/** The credentials a tool's input takes, as the key column of docs/mcp.md says them. */
const CREDENTIALS = ['key', 'review_key', 'session_token'] as const

function credentials(def: AnyAction): string {
  const input = def.input as { properties?: Record<string, unknown>; required?: string[] }
  const taken = CREDENTIALS.filter((field) => input.properties?.[field] !== undefined)
  const say = (field: string) => `${code(field)}${input.required?.includes(field) ? '' : ' optional'}`
  return taken.length > 0 ? taken.map(say).join(', ') : '—'
}

/** What a reader calls over REST for the same action: its action or view on the shared path, else its own. */
function restEquivalent(def: AnyAction): string {
  const { method, path } = def.http
  const view = def.http.method === 'GET' ? def.http.view : undefined
  const own = aliasPath(registry, def)
  if (path === '/api/clearing') return code(method === 'POST' ? def.name : view ? `?view=${view}` : `GET ${path}`)
  if (method === 'POST') return code(own ? `POST ${own}` : `POST ${path} ${def.name}`)
  return code(`GET ${own ?? path}${view && !own ? `?view=${view}` : ''}`)
}

/** One row per MCP tool, for the "## Tools" section of docs/mcp.md. */
export function mcpToolsTable(): string {
  const rows = registry.all.flatMap(({ def }) =>
    def.mcp ? [[code(def.mcp.name ?? def.name), restEquivalent(def), def.summary, credentials(def)]] : [],
  )
  return table(['tool', 'REST equivalent', 'what it does', 'key'], rows)
}

async function markdown(text: string): Promise<string> {
  return format(text, { parser: 'markdown', printWidth: 120, proseWrap: 'preserve' })
}

export async function renderReference(): Promise<string> {
  return markdown(`# Reference

Generated from the registry the server runs by \`${REGENERATE}\`; do not edit by hand. The same facts,
with every field's schema, are served at run time by \`GET /openapi.json\` and the discovery descriptor
(\`GET /api/clearing\`). The guides in this folder say what the actions are for.

## Actions

Every action with where REST serves it (a POST path dispatches on the body field \`action\`, a GET path on
the query parameter \`view\`; a shared path also serves each action at a path of its own), who may call
it, whether it writes, its MCP tool, and every error code it can answer with.

${actions()}

## MCP toolsets

\`POST /api/mcp\` lists the \`participation\` set; \`/api/mcp?toolsets=a,b\` or \`?toolsets=all\` lists others.

${toolsets()}

## Error codes

Every error answers \`{"error":{"code","message","details"?}}\` with this status; 429 and 503 add
\`Retry-After\` and \`retry_after_seconds\`. "transport" codes are answered before any action runs.

${errors()}

## Limits

The bounds the descriptor publishes under \`limits\` (characters, counts, bytes, seconds).

${limits()}

## Configuration

${configurationTable()}
`)
}

/** The README with its configuration table replaced by the one rendered now. */
export async function renderReadme(readme: string): Promise<string> {
  return markdown(between(readme, 'README.md', CONFIG_START, CONFIG_END, configurationTable()))
}

/** docs/mcp.md with its tools table replaced by the one rendered now. */
export async function renderMcpGuide(guide: string): Promise<string> {
  return markdown(between(guide, 'docs/mcp.md', TOOLS_START, TOOLS_END, mcpToolsTable()))
}

function between(text: string, file: string, startMarker: string, endMarker: string, generated: string): string {
  const start = text.indexOf(startMarker)
  const end = text.indexOf(endMarker)
  if (start < 0 || end < start) throw new Error(`${file} lacks the markers ${startMarker} ... ${endMarker}`)
  return `${text.slice(0, start + startMarker.length)}\n\n${generated}\n\n${text.slice(end)}`
}
