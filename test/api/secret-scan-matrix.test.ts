import assert from 'node:assert/strict'
import { describe, test } from 'node:test'
import { call, examples, registry } from '../support/examples.ts'
import { useFixture } from '../support/servers.ts'
import { codeOf } from '../support/errors.ts'
import { PLANTED } from '../support/secrets.ts'
import { storedState } from '../support/snapshot.ts'

type Input = Record<string, unknown>

/** The input with the secret at the field's path (`*`: the first item); undefined where it cannot go. */
function plant(input: Input, path: string, secret: string): { input: Input; at: string } | undefined {
  const copy = structuredClone(input)
  const parts = path.split('/').slice(1)
  let node: Record<string, unknown> | unknown[] = copy
  let at = ''
  for (const [i, part] of parts.entries()) {
    const key = part === '*' ? 0 : part
    at += `/${key}`
    if (i === parts.length - 1) {
      ;(node as Record<string | number, unknown>)[key] = secret
      return { input: copy, at }
    }
    const next = (node as Record<string | number, unknown>)[key]
    if (typeof next !== 'object' || next === null) return undefined
    node = next as Record<string, unknown>
  }
  return undefined
}

const writes = registry.all.filter((entry) => entry.textFields.length > 0)

describe('every stored text field of every action refuses a planted secret (derived from the registry)', () => {
  const { t, f } = useFixture()

  test('the derived fields include every kind of stored text the issue names', () => {
    const fields = new Set(writes.flatMap((e) => e.textFields.map((path) => `${e.def.name}${path}`)))
    for (const expected of [
      'contribute/content',
      'save_shared_memory/content',
      'save_shared_memory/title',
      'feedback/content',
      'submit_draft/content',
      'save_learning/lesson',
      'save_learning/revision',
      'report_content/explanation',
      'bookmark_history/carry_context',
      'join/name',
      'review_feedback/response',
    ]) {
      assert.ok(fields.has(expected), expected)
    }
    for (const secretField of ['contribute/key', 'rotate_key/new_key', 'report_status/receipt_key']) {
      assert.equal(fields.has(secretField), false, secretField)
    }
  })

  for (const entry of writes) {
    for (const path of entry.textFields) {
      test(`${entry.def.name} ${path}: 400 contains_secret naming the field, nothing stored`, async () => {
        const stored = await storedState(t.server.database.db)
        const tried: string[] = []
        for (const example of examples(entry.def.name, f)) {
          const planted = plant(example, path, PLANTED.github)
          if (!planted) continue
          const reply = await call(t, entry, planted.input)
          tried.push(`${reply.status} ${codeOf(reply.body)}`)
          if (codeOf(reply.body) !== 'contains_secret') continue
          assert.equal(reply.status, 400)
          const details = (reply.body as { error: { details: Array<{ path: string; message: string }> } }).error.details
          assert.deepEqual(details, [{ path: planted.at, message: 'github' }])
          assert.equal(JSON.stringify(reply.body).includes(PLANTED.github), false)
          assert.equal(await storedState(t.server.database.db), stored)
          return
        }
        assert.fail(`no example of ${entry.def.name} took a secret at ${path} (${tried.join(', ')})`)
      })
    }
  }
})
