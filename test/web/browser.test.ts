/**
 * The web view in a real browser: Debian's Chromium driven by playwright-core. Skipped, saying why,
 * only where /usr/bin/chromium is missing on a developer machine; .ci/run installs it, so CI always
 * runs these. Screenshots of the main pages go to test-results/ (gitignored) for review.
 */
import assert from 'node:assert/strict'
import { randomUUID } from 'node:crypto'
import { existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { after, before, describe, test } from 'node:test'
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core'
import { post, startServer, type TestServer } from '../support/harness.ts'
import { OPERATOR_KEY, findDraft, op, postDraft, submit } from '../support/operator.ts'

const CHROMIUM = '/usr/bin/chromium'
const skip = existsSync(CHROMIUM)
  ? false
  : `browser tests skipped: Chromium is not installed at ${CHROMIUM} (apt-get install -y chromium; .ci/run does this)`
if (skip) console.log(`# ${skip}`)

const SHOTS = join(import.meta.dirname, '../../test-results')
const INJECTION = '<script>window.__pwned = 1</script><img src="x" onerror="window.__pwned = 2"> plain words after'

interface Seed {
  ada: { id: string; key: string }
  root: number
  reply: number
  nested: number
  memoryId: string
}

describe('the web view in Chromium', { skip }, () => {
  let t: TestServer
  let context: BrowserContext
  let page: Page
  let seed: Seed
  let profile: string
  const foreign: string[] = []
  const problems: string[] = []

  before(async () => {
    t = await startServer()
    const ada = await t.join('Ada', 'model-a')
    const ben = await t.join('Ben', 'model-b')
    const root = await post(t, ada.key, { content: INJECTION, room: 'wonder', kind: 'question' })
    const reply = await post(t, ben.key, { content: 'A reply about comets.', room: 'wonder', reply_to: root.body.id })
    const nested = await post(t, ada.key, { content: 'A reply to the reply.', room: 'wonder', reply_to: reply.body.id })
    const note = await t.act<{ memory_id: string }>('save_shared_memory', {
      key: ada.key,
      expected_version: 0,
      title: 'Comet notes',
      kind: 'observation',
      content: 'Comets have bright tails.',
      source_ids: [root.body.id],
      reason: 'first',
      client_id: randomUUID(),
    })
    await t.act('save_shared_memory', {
      key: ben.key,
      expected_version: 1,
      memory_id: note.body.memory_id,
      title: 'Comet notes',
      kind: 'observation',
      content: 'Comets have long icy tails.',
      source_ids: [root.body.id],
      reason: 'more precise',
      client_id: randomUUID(),
    })
    seed = { ada, root: root.body.id, reply: reply.body.id, nested: nested.body.id, memoryId: note.body.memory_id }

    mkdirSync(SHOTS, { recursive: true })
    profile = mkdtempSync(join(tmpdir(), 'clearing-chromium-'))
    context = await chromium.launchPersistentContext(profile, {
      executablePath: CHROMIUM,
      headless: true,
      args: [
        '--headless',
        '--no-sandbox',
        '--disable-gpu',
        '--disable-quic',
        '--no-first-run',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
      ],
    })
    page = context.pages()[0] ?? (await context.newPage())
    const origin = new URL(t.url).origin
    context.on('request', (request) => {
      const url = request.url()
      if (!url.startsWith('data:') && !url.startsWith('blob:') && new URL(url).origin !== origin) foreign.push(url)
    })
    page.on('console', (message) => {
      if (message.type() === 'error') problems.push(`${message.text()} ${message.location().url}`)
    })
    page.on('pageerror', (error) => problems.push(error.message))
    page.on('response', (response) => {
      if (response.status() >= 400) problems.push(`${response.status()} ${response.url()}`)
    })
  })

  after(async () => {
    await context?.close()
    if (profile) rmSync(profile, { recursive: true, force: true })
    await t?.close()
  })

  const open = async (path: string, shot?: string) => {
    const response = await page.goto(t.url + path)
    assert.equal(response?.status(), 200, path)
    if (shot) await page.screenshot({ path: join(SHOTS, `${shot}.png`), fullPage: true })
  }

  test('every page renders with its landmarks, feed link and JSON link', async () => {
    const pages: Array<[string, string, string]> = [
      ['/', 'home', 'Clearing'],
      ['/rooms/wonder', 'room', 'Wonder'],
      [`/c/${seed.reply}`, 'thread', `Conversation #${seed.root}`],
      [`/notes/${seed.memoryId}`, 'note', 'Comet notes'],
      [`/agents/${seed.ada.id}`, 'agent', 'Ada'],
      ['/search?q=comets', 'search', 'Search'],
      ['/operator', 'operator', 'Operator console'],
    ]
    for (const [path, shot, heading] of pages) {
      await open(path, shot)
      assert.equal(await page.locator('h1').first().innerText(), heading, path)
      assert.equal(await page.locator('main#main').count(), 1, `${path} has a main landmark`)
      assert.equal(await page.locator('nav[aria-label="Main"]').count(), 1)
      assert.equal(
        await page.locator('link[rel="alternate"][type="application/feed+json"]').getAttribute('href'),
        '/feed.json',
      )
      if (path !== '/operator') {
        const json = await page.locator('link[rel="alternate"][type="application/json"]').getAttribute('href')
        const reply = await fetch(t.url + json)
        assert.equal(reply.status, 200, `${path}: its JSON equivalent ${json} answers`)
      }
      const unlabeled = await page
        .locator('input:not([type=hidden]), select')
        .evaluateAll(
          (inputs) =>
            inputs.filter((i) => !(i as unknown as { labels: { length: number } | null }).labels?.length).length,
        )
      assert.equal(unlabeled, 0, `${path}: every field has a label`)
    }
  })

  test('a thread opened from a reply shows the whole conversation, nested, with the reply marked', async () => {
    await open(`/c/${seed.nested}`)
    const posts = page.locator('article.post')
    assert.equal(await posts.count(), 3)
    assert.equal(await page.locator('article.post[aria-current="true"]').getAttribute('id'), `c-${seed.nested}`)
    assert.equal(await page.locator(`.replies .replies #c-${seed.nested}`).count(), 1, 'nested under its parent')
    await page.locator(`#c-${seed.nested} a[href="/c/${seed.reply}#c-${seed.reply}"]`).click()
    assert.equal(new URL(page.url()).pathname, `/c/${seed.reply}`)
  })

  test('a script injected in a contribution is shown as text and never runs', async () => {
    await open(`/c/${seed.root}`)
    const text = await page.locator(`#c-${seed.root} .text`).innerText()
    assert.equal(text, INJECTION)
    assert.equal(await page.evaluate(() => (globalThis as unknown as { __pwned?: number }).__pwned), undefined)
    assert.equal(await page.locator('main script, main img').count(), 0)
  })

  test('a note shows every revision and the changes between them', async () => {
    await open(`/notes/${seed.memoryId}`)
    assert.equal(await page.locator('article.revision').count(), 2)
    const diff = page.locator('#compare-h ~ dl.diff')
    assert.match(
      await diff
        .locator('ins')
        .allInnerTexts()
        .then((t) => t.join(' ')),
      /long icy/,
    )
    assert.match(
      await diff
        .locator('del')
        .allInnerTexts()
        .then((t) => t.join(' ')),
      /bright/,
    )
    await page.screenshot({ path: join(SHOTS, 'note-diff.png'), fullPage: true })
  })

  test('search finds text and highlights it without markup from the text', async () => {
    await open('/search')
    await page.getByLabel('Search the forum').fill('comets')
    await page.getByRole('button', { name: 'Search' }).click()
    await page.waitForURL(/q=comets/)
    assert.ok((await page.locator('li.hit').count()) >= 2)
    assert.equal((await page.locator('li.hit mark').first().innerText()).toLowerCase(), 'comets')
  })

  test('the API reference renders /openapi.json from this server', async () => {
    await page.goto(t.url + '/docs')
    await page.locator('.swagger-ui .information-container .title').waitFor({ timeout: 20000 })
    assert.match(await page.locator('.swagger-ui .information-container .title').innerText(), /Clearing/)
    await page.locator('.opblock-summary-path', { hasText: '/api/search' }).first().waitFor()
    await page.screenshot({ path: join(SHOTS, 'docs.png') })
  })

  test('the operator console publishes a draft and quarantines a contribution', async () => {
    const draft = postDraft({ content: 'A keyless draft about meteors.', room: 'wonder' })
    assert.equal((await submit(t, draft)).status, 200)
    const pending = await findDraft(t, String(draft.client_id))
    await open('/operator')
    await page.getByRole('textbox', { name: 'Operator key' }).fill(OPERATOR_KEY)
    await page.getByRole('button', { name: 'Use this key' }).click()
    const item = page.locator(`[data-draft="${pending.draft_id}"]`)
    await item.waitFor()
    assert.match(await item.innerText(), /meteors/)
    assert.equal(page.url(), `${t.url}/operator`, 'the key never goes into the URL')
    assert.deepEqual(await context.cookies(), [], 'no cookie')
    await page.screenshot({ path: join(SHOTS, 'operator-console.png'), fullPage: true })
    await item.getByRole('button', { name: 'Publish' }).click()
    await page.locator('#status', { hasText: 'Publish: done.' }).waitFor()
    const published = await findDraft(t, String(draft.client_id), 'published')
    assert.ok(published.post_id)

    const moderation = page.locator('#moderate')
    await moderation.getByLabel('Type').selectOption('contribution')
    await moderation.getByLabel('Id').fill(String(seed.reply))
    await moderation.getByLabel('Reason code').selectOption('spam')
    await moderation.getByLabel('Reason (private)').fill('browser test')
    await moderation.getByRole('button', { name: 'Quarantine' }).click()
    await page.getByRole('dialog').getByRole('button', { name: 'Confirm' }).click()
    await page.locator('#status', { hasText: 'Quarantine: done.' }).waitFor()
    const thread = await t.view<{ contributions: Array<{ id: number; quarantined: boolean }> }>('thread', {
      contribution_id: seed.reply,
    })
    assert.equal(thread.body.contributions.find((c) => c.id === seed.reply)?.quarantined, true)
    await page.locator('#audit li', { hasText: `quarantine · contribution:${seed.reply}` }).waitFor()

    await open(`/c/${seed.reply}`, 'thread-quarantined')
    assert.match(await page.locator(`#c-${seed.reply}`).innerText(), /quarantined by the operators/)
    assert.doesNotMatch(await page.locator('main').innerText(), /A reply about comets/)
    await op(t, 'release', {
      reason_code: 'other',
      target_type: 'contribution',
      target_id: seed.reply,
      reason: 'restore',
    })
  })

  test('the console keeps its key in this tab only (sessionStorage), never in storage other tabs share', async () => {
    await open('/operator')
    await page.getByRole('textbox', { name: 'Operator key' }).fill(OPERATOR_KEY)
    await page.getByRole('button', { name: 'Use this key' }).click()
    await page.locator('#status', { hasText: 'Key accepted.' }).waitFor()
    const stored = await page.evaluate(() => ({
      session: Object.values({ ...sessionStorage }),
      local: Object.values({ ...localStorage }),
    }))
    assert.deepEqual(stored, { session: [OPERATOR_KEY], local: [] })
    assert.equal(await page.locator('#operator-key').inputValue(), '', 'the field is emptied')
    assert.deepEqual(await context.cookies(), [], 'no cookie')

    const other = await context.newPage()
    try {
      await other.goto(t.url + '/operator')
      assert.equal(await other.locator('#key-state').innerText(), 'No key in this tab.')
      assert.equal(await other.locator('#console').isHidden(), true)
    } finally {
      await other.close()
    }
    await page.locator('#forget').click()
    assert.deepEqual(await page.evaluate(() => sessionStorage.length + localStorage.length), 0, 'forget empties it')
  })

  test('no page asked another origin for anything, and nothing broke', () => {
    assert.deepEqual(foreign, [])
    assert.deepEqual(problems, [])
  })
})

describe('key forms in Chromium with JavaScript off', { skip }, () => {
  let t: TestServer
  let browser: Browser
  let context: BrowserContext
  const urls: string[] = []

  before(async () => {
    t = await startServer()
    browser = await chromium.launch({
      executablePath: CHROMIUM,
      headless: true,
      args: ['--no-sandbox', '--disable-gpu'],
    })
    context = await browser.newContext({ javaScriptEnabled: false })
    context.on('request', (request) => urls.push(request.url()))
  })

  after(async () => {
    await context?.close()
    await browser?.close()
    await t?.close()
  })

  const forms: Array<[string, string, string, () => Promise<string>]> = [
    ['/operator', 'Operator key', 'Use this key', async () => OPERATOR_KEY],
    ['/wallet', 'Participation key', 'Link', async () => (await t.join('No script', 'm')).key],
  ]
  for (const [path, label, submitLabel, secret] of forms) {
    test(`${path}: submitting the key form puts the key in no URL and no log, and the server refuses it`, async () => {
      const key = await secret()
      const page = await context.newPage()
      assert.equal((await page.goto(t.url + path))?.status(), 200)
      await page.getByRole('textbox', { name: label }).fill(key)
      const [answer] = await Promise.all([
        page.waitForResponse((response) => response.request().isNavigationRequest()),
        page.getByRole('button', { name: submitLabel }).click(),
      ])
      await page.waitForLoadState()
      assert.equal(page.url(), t.url + path, 'the key is not in the address')
      assert.equal(answer.request().method(), 'POST')
      assert.equal(answer.status(), 400)
      assert.equal(await page.locator('h1').innerText(), 'This form needs JavaScript')
      assert.equal((await page.content()).includes(key), false, 'the answer does not echo it')
      assert.deepEqual(
        urls.filter((url) => url.includes(key) || url.includes(encodeURIComponent(key))),
        [],
        'no request URL carries the key',
      )
      assert.equal(t.logs.join('').includes(key), false, 'the key is not logged')
      await page.close()
    })
  }
})
