import assert from 'node:assert/strict'
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { test } from 'node:test'
import { ConfigError, loadConfig } from '../../src/config.ts'
import { LIBRARY_ANCHORS } from '../../src/services/secret-scan/library-anchors.ts'
import { LIBRARY_RULES, RULE_PREFIX, lintText, secretlint } from '../../src/services/secret-scan/library.ts'
import { readSecretPatterns, SecretPatternsError } from '../../src/services/secret-scan/operator-patterns.ts'
import { createSecretScanner } from '../../src/services/secret-scan/scanner.ts'
import { PLANTED } from '../support/secrets.ts'

const CORPUS = readFileSync(new URL('../support/forum-corpus.txt', import.meta.url), 'utf8')
  .trimEnd()
  .split('\n')
const scanner = createSecretScanner({ library: secretlint, patterns: [], timeoutMs: 5000 })

/** The corpus as the scan meets it: each line alone, and runs of four lines as multi-line posts. */
function posts(): string[] {
  const runs = []
  for (let i = 0; i < CORPUS.length; i += 4) runs.push(CORPUS.slice(i, i + 4).join('\n'))
  return [...CORPUS, ...runs]
}

test('false positives on the shipped corpus of ordinary forum text stay under 0.1%', async () => {
  const texts = posts()
  assert.ok(CORPUS.length >= 400, 'a few hundred lines')
  const flagged: string[] = []
  for (const text of texts) {
    const { findings } = await scanner.scan([{ path: '/content', text }])
    if (findings.length) flagged.push(`${findings.map((f) => f.kind).join(',')}: ${text.slice(0, 80)}`)
  }
  const rate = flagged.length / texts.length
  console.log(`# false positives: ${flagged.length} of ${texts.length} texts (${(rate * 100).toFixed(3)}%)`)
  assert.ok(rate < 0.001, flagged.join('\n'))
})

test('every planted secret is found in the middle of corpus text', async () => {
  for (const [name, secret] of Object.entries(PLANTED)) {
    const text = `${CORPUS[3]}\n${secret}\n${CORPUS[4]}`
    const { findings } = await scanner.scan([{ path: '/content', text }])
    assert.ok(findings.length > 0, name)
  }
})

test('every rule of the recommended preset has an anchor, and the bypass rule is left out', () => {
  const ids = LIBRARY_RULES.map((rule) => rule.meta.id.slice(RULE_PREFIX.length))
  assert.deepEqual(
    ids.filter((id) => !(id in LIBRARY_ANCHORS)),
    [],
    'add an anchor in library-anchors.ts',
  )
  assert.equal(ids.includes('filter-comments'), false)
})

test('the prefilter never hides what the full library would report (corpus and planted secrets)', async () => {
  const samples = [
    ...posts(),
    ...Object.values(PLANTED),
    `aws_secret_access_key = "${'A'.repeat(20)}${'b'.repeat(20)}"`,
  ]
  for (const text of samples) {
    const prefiltered = secretlint.mayMatch(text) ? await secretlint.lint(text) : []
    assert.deepEqual(prefiltered, await lintText(text), text.slice(0, 60))
  }
})

test('a typical 500-character post costs well under a millisecond to scan', async () => {
  const post = CORPUS.slice(0, 12).join(' ').slice(0, 500)
  for (let i = 0; i < 50; i++) await scanner.scan([{ path: '/content', text: post }])
  const runs = 500
  const started = performance.now()
  for (let i = 0; i < runs; i++) await scanner.scan([{ path: '/content', text: post }])
  const perCall = (performance.now() - started) / runs
  console.log(`# scan of a 500-character post: ${(perCall * 1000).toFixed(0)} µs`)
  assert.ok(perCall < 5)
})

test('hostile input is scanned within bounds (64 KiB of repeats, invisibles, one-word lines, base64)', async () => {
  const hostile = [
    'a'.repeat(64_000),
    '\u200b'.repeat(30_000) + PLANTED.github,
    'x\n'.repeat(30_000),
    ('QUFB'.repeat(2047) + ' ').repeat(7),
    '://a:'.repeat(12_000),
    'abandon '.repeat(8_000),
  ]
  for (const text of hostile) {
    const started = performance.now()
    await scanner.scan([{ path: '/content', text }])
    assert.ok(performance.now() - started < 2000, `${text.slice(0, 10)}… took too long`)
  }
  const { findings } = await scanner.scan([{ path: '/content', text: hostile[1] as string }])
  assert.ok(findings.some((f) => f.kind === 'github'))
})

test('a seed phrase needs 12 words from the BIP39 list in a row; numbers and commas between do not break it', async () => {
  const words = PLANTED.seedPhrase.split(' ')
  const numbered = words.map((w, i) => `${i + 1}. ${w}`).join('\n')
  assert.ok((await scanner.scan([{ path: '/c', text: numbered }])).findings.some((f) => f.kind === 'seed_phrase'))
  const eleven = words.slice(0, 11).join(', ')
  assert.deepEqual((await scanner.scan([{ path: '/c', text: eleven }])).findings, [])
})

test('SECRET_PATTERNS_FILE: a good file loads; a bad one stops the start with one clear line', () => {
  const dir = mkdtempSync(join(tmpdir(), 'clearing-patterns-'))
  const file = (name: string, text: string) => {
    const path = join(dir, name)
    writeFileSync(path, text)
    return path
  }
  const good = file('good.json', JSON.stringify([{ kind: 'acme_token', pattern: 'acme_[a-z0-9]{32}', flags: 'i' }]))
  assert.deepEqual(readSecretPatterns(good), [{ kind: 'acme_token', pattern: 'acme_[a-z0-9]{32}', flags: 'i' }])
  assert.equal(loadConfig({ SECRET_PATTERNS_FILE: good }).secretPatterns.length, 1)
  const bad: Array<[string, RegExp]> = [
    [file('not-json.json', '[{'), /not readable JSON/],
    [file('object.json', '{}'), /JSON array/],
    [file('kind.json', '[{"kind":"Bad Kind","pattern":"x"}]'), /entry 0: kind/],
    [file('regex.json', '[{"kind":"k","pattern":"("}]'), /entry 0: pattern does not compile/],
    [file('empty.json', '[{"kind":"k","pattern":"a*"}]'), /matches the empty text/],
    [file('flags.json', '[{"kind":"k","pattern":"a","flags":"g"}]'), /flags/],
    [file('extra.json', '[{"kind":"k","pattern":"a","note":1}]'), /unknown fields: note/],
    [join(dir, 'missing.json'), /not readable/],
  ]
  for (const [path, message] of bad) {
    assert.throws(
      () => readSecretPatterns(path),
      (err: Error) => err instanceof SecretPatternsError && message.test(err.message),
    )
    assert.throws(
      () => loadConfig({ SECRET_PATTERNS_FILE: path }),
      (err: Error) => err instanceof ConfigError && message.test(err.message),
    )
  }
})
