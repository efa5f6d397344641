import assert from 'node:assert/strict'
import { readdirSync, readFileSync } from 'node:fs'
import { test } from 'node:test'
import { ENV } from '../../src/config.ts'

const DIR = new URL('../../docs/deploy/', import.meta.url)
const SETTINGS = new Set<string>(ENV.map(([name]) => name))

/** Names the examples use that are not Clearing's settings, each with whose it is. */
const NOT_CLEARING: Record<string, string> = {
  MALLOC_ARENA_MAX: "glibc's allocator (docs/operating.md, memory settings)",
  NODE_OPTIONS: "Node's own options (docs/operating.md, memory settings)",
  POSTGRES_USER: 'the PostgreSQL image',
  POSTGRES_PASSWORD: 'the PostgreSQL image, and the compose file that builds DATABASE_URL from it',
  POSTGRES_DB: 'the PostgreSQL image',
  CLEARING_HOST: 'the compose file and the Caddyfile: the public host name',
}

/** Every environment variable a deployment file sets or reads, by the syntax of its kind of file. */
function variables(name: string, text: string): string[] {
  const found = new Set<string>()
  const add = (pattern: RegExp): void => {
    for (const match of text.matchAll(pattern)) found.add(match[1] as string)
  }
  add(/\$\{?([A-Z][A-Z0-9_]+)/g) // ${NAME} in compose and shell, {$NAME} in a Caddyfile
  if (name.endsWith('.service')) add(/^Environment="?([A-Z][A-Z0-9_]+)=/gm)
  if (name === 'Containerfile') {
    for (const line of text.split('\n').filter((l) => l.startsWith('ENV '))) {
      for (const match of line.matchAll(/([A-Z][A-Z0-9_]+)=/g)) found.add(match[1] as string)
    }
  }
  if (name.endsWith('.yaml')) add(/^\s+([A-Z][A-Z0-9_]+):/gm)
  return [...found]
}

const files = readdirSync(DIR).filter((name) => !name.endsWith('.md'))

test('the deployment examples are a systemd unit, a container file, a compose file and a proxy config', () => {
  for (const name of ['clearing.service', 'Containerfile', 'compose.yaml', 'Caddyfile']) {
    assert.ok(files.includes(name), name)
  }
})

test('every environment variable the deployment examples name is a setting of src/config.ts', () => {
  const unknown = files.flatMap((name) =>
    variables(name, readFileSync(new URL(name, DIR), 'utf8'))
      .filter((variable) => !SETTINGS.has(variable) && !(variable in NOT_CLEARING))
      .map((variable) => `${name}: ${variable}`),
  )
  assert.deepEqual(unknown, [], 'name only settings the configuration schema has (src/config.ts ENV)')
})

test('the examples set what several instances on PostgreSQL need, and every exception is used', () => {
  const compose = readFileSync(new URL('compose.yaml', DIR), 'utf8')
  const named = variables('compose.yaml', compose)
  for (const setting of ['DATABASE_URL', 'KEY_PEPPER', 'PUBLIC_BASE_URL', 'TRUST_PROXY']) {
    assert.ok(named.includes(setting), `compose.yaml sets ${setting}`)
  }
  assert.match(compose, /clearing-1:[\s\S]*clearing-2:/, 'two instances')
  const all = files.flatMap((name) => variables(name, readFileSync(new URL(name, DIR), 'utf8')))
  for (const exception of Object.keys(NOT_CLEARING)) assert.ok(all.includes(exception), `${exception} is used`)
})
