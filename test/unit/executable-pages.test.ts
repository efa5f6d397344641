import assert from 'node:assert/strict'
import { execFileSync } from 'node:child_process'
import { test } from 'node:test'
import { parseSmaps, unmappable } from '../../src/executable-pages.ts'

const NODE = '/opt/node/bin/node'

/** A mapping's header and the figures smaps gives for it (kB), in the kernel's layout. */
function mapping(
  range: string,
  permissions: string,
  path: string,
  kb: { rss: number; anonymous?: number; dirty?: number },
) {
  return [
    `${range} ${permissions} 00000000 fe:00 16039951                           ${path}`,
    `Size:               ${kb.rss} kB`,
    `Rss:                ${kb.rss} kB`,
    `Private_Dirty:      ${kb.dirty ?? 0} kB`,
    `Anonymous:          ${kb.anonymous ?? 0} kB`,
    'VmFlags: rd mr mw me',
  ].join('\n')
}

test('only the executable’s unwritable mappings with no page of the process’s own are unmapped', () => {
  const smaps = [
    mapping('00400000-00746000', 'r--p', NODE, { rss: 3352 }),
    mapping('0074a000-03044000', 'r-xp', NODE, { rss: 30084 }),
    // Relocations the loader wrote before making them read-only: the process's copy, not the file's.
    mapping('06b52000-06b56000', 'r--p', NODE, { rss: 16, anonymous: 8, dirty: 8 }),
    mapping('06b56000-06b7d000', 'rw-p', NODE, { rss: 156 }),
    mapping('03200000-03201000', 'r-xp', NODE, { rss: 0 }),
    mapping('7f0000000000-7f0000200000', 'r-xp', '/usr/lib/x86_64-linux-gnu/libc.so.6', { rss: 1400 }),
    mapping('7f0000400000-7f0000800000', 'rw-p', '', { rss: 4096, anonymous: 4096, dirty: 4096 }),
  ].join('\n')
  const mappings = parseSmaps(smaps)
  assert.equal(mappings.length, 7)
  assert.deepEqual(mappings[2], {
    start: 0x06b52000n,
    end: 0x06b56000n,
    permissions: 'r--p',
    path: NODE,
    residentKb: 16,
    anonymousKb: 8,
    privateDirtyKb: 8,
  })
  assert.deepEqual(
    unmappable(mappings, NODE).map((m) => [m.start, m.residentKb]),
    [
      [0x400000n, 3352],
      [0x74a000n, 30084],
    ],
  )
})

/**
 * A process that unmaps its executable's pages and then goes on working: compiled code, V8's
 * built-ins, zlib, OpenSSL and ICU's data all live in the executable. Prints the executable's
 * resident kB and its pages of the process's own (the relocations) before and after.
 */
const RELEASING = `
import { createHash } from 'node:crypto'
import { gzipSync, gunzipSync } from 'node:zlib'
import { executableFile, loadExecutableRelease, processMappings } from ${JSON.stringify(new URL('../../src/executable-pages.ts', import.meta.url).href)}
const executable = executableFile()
const figures = () => {
  const own = processMappings().filter((m) => m.path === executable)
  return { resident: own.reduce((kb, m) => kb + m.residentKb, 0), written: own.reduce((kb, m) => kb + m.anonymousKb, 0) }
}
const release = await loadExecutableRelease()
if (!release) {
  console.log(JSON.stringify({ release: false }))
} else {
  const before = figures()
  const released = release()
  const after = figures()
  const work = [
    gunzipSync(gzipSync('clearing '.repeat(1000))).length,
    createHash('sha256').update('clearing').digest('hex').slice(0, 12),
    new Intl.NumberFormat('de-DE').format(1234.5),
    JSON.stringify(structuredClone({ a: [1, 'b'] })),
  ]
  console.log(JSON.stringify({ release: true, before, released, after, work }))
}
`

test('a process unmaps the executable pages it read and goes on working (Linux)', () => {
  const out = execFileSync(process.execPath, ['--input-type=module', '-e', RELEASING], { encoding: 'utf8' })
  const result = JSON.parse(out) as
    | { release: false }
    | {
        release: true
        before: { resident: number; written: number }
        released: number
        after: { resident: number; written: number }
        work: unknown[]
      }
  if (!result.release) {
    assert.notEqual(process.platform, 'linux', 'on Linux the server unmaps through madvise')
    return
  }
  const { before, released, after, work } = result
  assert.ok(released >= 10 * 1024, `${released} kB released`)
  assert.ok(
    before.resident - after.resident >= 10 * 1024,
    `${before.resident} kB resident before, ${after.resident} after`,
  )
  assert.equal(after.written, before.written, 'the pages the process wrote to are kept')
  assert.deepEqual(work, [9000, 'fa2b7cb7a3b6', '1.234,5', '{"a":[1,"b"]}'])
})
