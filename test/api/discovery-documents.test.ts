import assert from 'node:assert/strict'
import { readFileSync } from 'node:fs'
import { after, before, describe, test } from 'node:test'
import { Ajv } from 'ajv'
import addFormatsModule from 'ajv-formats'
import { registry } from '../../src/app.ts'
import { DISCOVERY_PATHS } from '../../src/core/discovery-paths.ts'
import { TOOLSET_NAMES } from '../../src/core/toolsets.ts'
import { GUIDE_MIRRORS, guidePath } from '../../src/http/discovery/guides.ts'
import { startServer, type TestServer } from '../support/harness.ts'

type AddFormats = (ajv: Ajv) => Ajv
const addFormats = ((addFormatsModule as unknown as { default?: AddFormats }).default ??
  addFormatsModule) as unknown as AddFormats

/** The MCP registry's published schema, vendored verbatim (static.modelcontextprotocol.io). */
const SERVER_SCHEMA = JSON.parse(
  readFileSync(new URL('../fixtures/server.schema.2025-12-11.json', import.meta.url), 'utf8'),
) as Record<string, unknown>

const ACTIONS = new Set(registry.all.map(({ def }) => def.name))
const TOOLS = new Set(registry.all.flatMap(({ def }) => (def.mcp ? [def.mcp.name ?? def.name] : [])))
const VIEWS = new Set(
  registry.all.flatMap(({ def }) => (def.http.method === 'GET' && def.http.view ? [def.http.view] : [])),
)

/** Every property name of every action's input and output schema: the fields a document may name. */
function fieldNames(): Set<string> {
  const names = new Set<string>()
  const walk = (node: unknown): void => {
    if (typeof node !== 'object' || node === null) return
    const properties = (node as { properties?: Record<string, unknown> }).properties
    if (properties && typeof properties === 'object') for (const name of Object.keys(properties)) names.add(name)
    for (const value of Object.values(node)) walk(value)
  }
  for (const { def } of registry.all) {
    walk(def.input)
    walk(def.output)
  }
  return names
}

describe('discovery documents, generated from the registry', () => {
  let t: TestServer
  const bodies = new Map<string, string>()
  before(async () => {
    t = await startServer()
    for (const path of Object.values(DISCOVERY_PATHS)) {
      const reply = await fetch(`${t.url}${path}`)
      assert.equal(reply.status, 200, path)
      assert.equal(reply.headers.get('access-control-allow-origin'), '*', path)
      bodies.set(path, await reply.text())
    }
  })
  after(async () => {
    await t.close()
  })
  const json = (path: string) => JSON.parse(bodies.get(path) ?? 'null') as Record<string, unknown>

  test('server.json validates against the MCP registry schema and names this server', () => {
    const ajv = addFormats(new Ajv({ strict: false, allErrors: true }))
    const validate = ajv.compile(SERVER_SCHEMA)
    const document = json(DISCOVERY_PATHS.server_json)
    assert.ok(validate(document), JSON.stringify(validate.errors))
    const pkg = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string }
    assert.equal(document.version, pkg.version)
    assert.equal(document.$schema, SERVER_SCHEMA.$id)
    assert.deepEqual(
      (document.remotes as Array<{ url: string }>).map((remote) => remote.url),
      [`${t.url}/api/mcp`],
    )
    // The server card carries the same identity.
    const card = json(DISCOVERY_PATHS.server_card)
    assert.equal(card.name, document.name)
    assert.equal(card.version, document.version)
  })

  test('the catalog lists every other document, with its media type', () => {
    const catalog = json(DISCOVERY_PATHS.ai_catalog) as { entries: Array<{ url: string; mediaType: string }> }
    const listed = catalog.entries.map((entry) => entry.url)
    for (const path of Object.values(DISCOVERY_PATHS)) {
      if (path === DISCOVERY_PATHS.ai_catalog) continue
      assert.ok(listed.includes(`${t.url}${path}`), path)
    }
    for (const entry of catalog.entries) assert.ok(entry.mediaType, entry.url)
  })

  test('each toolset the documents name lists exactly its tools on the live MCP endpoint', async () => {
    const meta = (
      json(DISCOVERY_PATHS.server_json)._meta as Record<string, { toolsets: Array<Record<string, unknown>> }>
    )['io.modelcontextprotocol.registry/publisher-provided']
    assert.deepEqual(
      meta?.toolsets.map((set) => set.name),
      [...TOOLSET_NAMES],
    )
    for (const set of meta?.toolsets ?? []) {
      const reply = await fetch(String(set.url), {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
        body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
      })
      assert.equal(reply.status, 200)
      const listed = ((await reply.json()) as { result: { tools: Array<{ name: string }> } }).result.tools
      assert.deepEqual(listed.map((tool) => tool.name).sort(), [...(set.tools as string[])].sort(), String(set.name))
    }
    const agent = json(DISCOVERY_PATHS.agent_card) as { skills: Array<{ id: string; examples: string[] }> }
    assert.deepEqual(
      agent.skills.map((skill) => skill.id),
      [...TOOLSET_NAMES],
    )
    for (const skill of agent.skills) for (const tool of skill.examples) assert.ok(TOOLS.has(tool), tool)
  })

  test('every URL of this server in any document answers, and is not a 404', async () => {
    const urls = new Set<string>()
    for (const body of bodies.values()) {
      for (const match of body.matchAll(/https?:\/\/[^\s"')<>`\]]+/g)) {
        const url = match[0].replace(/[.,:;]+$/, '')
        if (url.startsWith(t.url)) urls.add(url)
      }
    }
    assert.ok(urls.size >= 15, `${urls.size} URLs`)
    for (const url of urls) {
      const path = new URL(url).pathname
      const reply =
        path === '/api/mcp'
          ? await fetch(url, {
              method: 'POST',
              headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
              body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
            })
          : await fetch(url)
      assert.equal(reply.status, 200, url)
      await reply.arrayBuffer()
    }
  })

  test('every .md link of llms.txt answers markdown, the guides among them, with the text of their JSON form', async () => {
    const llms = bodies.get(DISCOVERY_PATHS.llms) ?? ''
    const links = [...llms.matchAll(/\]\((https?:\/\/[^)\s]+\.md)\)/g)].map((match) => match[1] as string)
    for (const guide of GUIDE_MIRRORS) assert.ok(links.includes(`${t.url}${guidePath(guide.name)}`), guide.name)
    for (const url of links) {
      const reply = await fetch(url)
      assert.equal(reply.status, 200, url)
      assert.match(reply.headers.get('content-type') ?? '', /^text\/markdown; charset=utf-8$/, url)
      assert.match(await reply.text(), /^(---\n[^]*?\n---\n\n)?# \S/, url)
    }
    for (const guide of GUIDE_MIRRORS) {
      const markdown = await (await fetch(`${t.url}${guidePath(guide.name)}`)).text()
      const json = await (await fetch(`${t.url}${guide.api}`)).json()
      // Every sentence and step of the JSON form is in the mirror.
      const texts: string[] = []
      const walk = (node: unknown): void => {
        if (typeof node === 'string' && node.includes(' ')) texts.push(node)
        else if (typeof node === 'object' && node !== null) for (const value of Object.values(node)) walk(value)
      }
      walk(json)
      assert.ok(texts.length > 10, guide.name)
      for (const text of texts) assert.ok(markdown.includes(text), `${guide.name}: ${text}`)
    }
  })

  test('the markdown documents name only actions, tools, views and fields that exist', () => {
    // Beside the actions' fields, the error body's (DESIGN.md, "Error body"; an MCP 429 adds reset_seconds).
    const fields = new Set([...fieldNames(), 'retry_after_seconds', 'reset_seconds'])
    const known = (name: string) => ACTIONS.has(name) || TOOLS.has(name) || fields.has(name)
    for (const path of [DISCOVERY_PATHS.llms, DISCOVERY_PATHS.skill, DISCOVERY_PATHS.heartbeat]) {
      const body = bodies.get(path) ?? ''
      for (const [, name] of body.matchAll(/`([a-z]+(?:_[a-z]+)+)`/g)) {
        assert.ok(known(name as string), `${path} names ${name}`)
      }
      for (const [, action] of body.matchAll(/\{"action":"([a-z_]+)"\}/g)) {
        assert.ok(ACTIONS.has(action as string), `${path}: action ${action}`)
      }
      for (const [, view] of body.matchAll(/view=([a-z_]+)/g))
        assert.ok(VIEWS.has(view as string), `${path}: view ${view}`)
    }
    const llms = bodies.get(DISCOVERY_PATHS.llms) ?? ''
    assert.match(llms, /^# Clearing\n\n> /)
    // Every action is listed once, and only actions are.
    const listed = [...llms.matchAll(/^- `([a-z_]+)`/gm)].map((match) => match[1])
    assert.deepEqual([...listed].sort(), [...ACTIONS].sort())
    assert.match(bodies.get(DISCOVERY_PATHS.skill) ?? '', /^---\nname: clearing\ndescription: .+\nversion: /)
    assert.match(bodies.get(DISCOVERY_PATHS.heartbeat) ?? '', /429/)
  })
})
