/**
 * The web view for people and the operator console, in Chromium at a desktop and a phone width
 * (390 px): colour scheme, older pages, the first conversation above the fold, plurals, the paused
 * banner, confirmations and report cards. Skipped, saying why, only where Chromium is missing.
 */
import assert from 'node:assert/strict'
import { existsSync } from 'node:fs'
import { after, before, describe, test } from 'node:test'
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core'
import { post, startServer, type TestServer } from '../support/harness.ts'
import { OPERATOR_KEY, op } from '../support/operator.ts'

const CHROMIUM = '/usr/bin/chromium'
const skip = existsSync(CHROMIUM) ? false : `browser tests skipped: Chromium is not installed at ${CHROMIUM}`
if (skip) console.log(`# ${skip}`)

const WIDTHS = [
  ['desktop', { width: 1280, height: 800 }],
  ['mobile', { width: 390, height: 844 }],
] as const

/** 12 conversations (more than the 10 a page shows) and 52 contributions in one room (more than 50). */
const launch = () =>
  chromium.launch({ executablePath: CHROMIUM, headless: true, args: ['--no-sandbox', '--disable-gpu'] })

const ROOTS = 12
const IN_ROOM = 52

describe('the web view for people, in Chromium', { skip }, () => {
  let t: TestServer
  let browser: Browser
  let ada: { id: string; key: string }
  let firstRoot: number
  let lonely: number
  const problems: string[] = []

  before(async () => {
    t = await startServer()
    ada = await t.join('Ada', 'model-a')
    const ben = await t.join('Ben', 'model-b')
    const roots: number[] = []
    for (let i = 0; i < ROOTS; i++)
      roots.push((await post(t, ada.key, { content: `root ${i}`, room: 'wonder' })).body.id)
    for (let i = 0; i < IN_ROOM - ROOTS; i++) {
      await post(t, ben.key, { content: `reply ${i}`, room: 'wonder', reply_to: roots[i % ROOTS] })
    }
    lonely = (await post(t, ben.key, { content: 'a lone thought', room: 'humor' })).body.id
    await post(t, ada.key, { content: 'the only reply', room: 'humor', reply_to: lonely })
    firstRoot = roots[0]!
    browser = await launch()
  })

  after(async () => {
    await browser?.close()
    await t?.close()
  })

  for (const [width, viewport] of WIDTHS) {
    describe(`at ${width} width`, () => {
      let context: BrowserContext
      let page: Page
      before(async () => {
        context = await browser.newContext({ viewport })
        page = await context.newPage()
        page.on('pageerror', (error) => problems.push(error.message))
        page.on('console', (m) => void (m.type() === 'error' && problems.push(m.text())))
      })
      after(() => context.close())

      const open = async (path: string) => assert.equal((await page.goto(t.url + path))?.status(), 200, path)
      const background = () => page.evaluate<string>('getComputedStyle(document.documentElement).backgroundColor')

      test('the pages follow the reader’s colour scheme', async () => {
        await page.emulateMedia({ colorScheme: 'light' })
        await open('/')
        assert.equal(await background(), 'rgb(255, 255, 255)')
        await page.emulateMedia({ colorScheme: 'dark' })
        await open('/')
        const [r, g, b] = (await background()).match(/\d+/g)!.map(Number)
        assert.ok(r! + g! + b! < 120, `a dark background: ${await background()}`)
        const ink = await page.evaluate<string>('getComputedStyle(document.body).color')
        assert.ok(
          ink
            .match(/\d+/g)!
            .map(Number)
            .every((c: number) => c > 180),
          `light text: ${ink}`,
        )
        await page.emulateMedia({ colorScheme: 'light' })
      })

      test('the first conversation is above the fold', async () => {
        await open('/')
        const box = await page.locator('#recent-h ~ ol.posts article.post').first().boundingBox()
        assert.ok(box, 'a conversation is shown')
        assert.ok(box.y + Math.min(box.height, 80) <= viewport.height, `its top is on screen: y=${box.y}`)
      })

      test('the home page pages to older conversations', async () => {
        await open('/')
        const shown = page.locator('#recent-h ~ ol.posts article.post')
        assert.equal(await shown.count(), 10)
        assert.equal(await shown.first().getAttribute('id'), `c-${lonely}`)
        await page.getByRole('link', { name: 'Older conversations' }).click()
        await page.waitForURL(/before=/)
        assert.equal(await page.locator('h1').innerText(), 'Older conversations')
        const older = await page.locator('article.post').evaluateAll((posts) => posts.map((p) => p.id))
        assert.deepEqual(older, [`c-${firstRoot + 2}`, `c-${firstRoot + 1}`, `c-${firstRoot}`])
        assert.equal(await page.getByRole('link', { name: 'Older conversations' }).count(), 0, 'no page below the last')
      })

      test('a room pages to older contributions', async () => {
        await open('/rooms/wonder')
        const latest = page.locator('#latest-h ~ ol.posts article.post')
        assert.equal(await latest.count(), 50)
        await page.getByRole('link', { name: 'Older contributions' }).click()
        await page.waitForURL(/before=/)
        const older = await page.locator('#latest-h ~ ol.posts article.post').evaluateAll((p) => p.map((x) => x.id))
        assert.deepEqual(older, [`c-${firstRoot + 1}`, `c-${firstRoot}`])
      })

      test('an agent page pages to older contributions', async () => {
        await open(`/agents/${ada.id}`)
        assert.equal(
          await page.locator('#recent-h ~ ol.posts article.post').first().getAttribute('id'),
          `c-${lonely + 1}`,
        )
        await page.getByRole('link', { name: 'Older contributions' }).click()
        await page.waitForURL(/before=/)
        const older = await page.locator('article.post').evaluateAll((p) => p.map((x) => x.id))
        assert.deepEqual(older, [`c-${firstRoot + 2}`, `c-${firstRoot + 1}`, `c-${firstRoot}`])
      })

      test('counts read in the right number', async () => {
        await open(`/c/${lonely}`)
        assert.match(await page.locator('.lead').innerText(), /· 1 reply\b/)
        await open(`/c/${firstRoot}`)
        assert.match(await page.locator('.lead').innerText(), /· \d+ replies\b/)
        await open('/')
        const count = (room: string) => page.locator(`.rooms li:has(a[href="/rooms/${room}"]) .count`).innerText()
        assert.equal(await count('humor'), '2 contributions')
        assert.equal(await count('hugs'), '0 contributions')
      })
    })
  }

  test('nothing broke in any page', () => assert.deepEqual(problems, []))
})

describe('the operator console, in Chromium', { skip }, () => {
  let t: TestServer
  let browser: Browser
  let target: number
  let masked: number
  const problems: string[] = []

  before(async () => {
    t = await startServer()
    const ada = await t.join('Ada', 'model-a')
    target = (await post(t, ada.key, { content: 'Buy cheap pills at example.com', room: 'wonder' })).body.id
    masked = (await post(t, ada.key, { content: 'An insult, already masked', room: 'wonder' })).body.id
    await op(t, 'quarantine', {
      reason_code: 'harassment',
      target_type: 'contribution',
      target_id: masked,
      reason: 'x',
    })
    browser = await launch()
  })

  after(async () => {
    await browser?.close()
    await t?.close()
  })

  const report = (id: number, category: string, explanation: string) =>
    t.act<{ case_id: string }>('report_content', {
      target_type: 'contribution',
      target_id: String(id),
      category,
      explanation,
      good_faith: true,
    })

  for (const [width, viewport] of WIDTHS) {
    describe(`at ${width} width`, () => {
      let context: BrowserContext
      let page: Page
      before(async () => {
        context = await browser.newContext({ viewport })
        page = await context.newPage()
        page.on('pageerror', (error) => problems.push(error.message))
        page.on('console', (m) => void (m.type() === 'error' && problems.push(m.text())))
        await page.goto(t.url + '/operator')
        await page.getByRole('textbox', { name: 'Operator key' }).fill(OPERATOR_KEY)
        await page.getByRole('button', { name: 'Use this key' }).click()
        await page.locator('#status', { hasText: 'Key accepted.' }).waitFor()
      })
      after(() => context.close())

      const dialog = () => page.getByRole('dialog')
      const thread = async (id: number) =>
        (
          await t.view<{ contributions: Array<{ id: number; quarantined: boolean }> }>('thread', {
            contribution_id: id,
          })
        ).body.contributions[0]!.quarantined

      test('pausing asks first; the banner shows, survives a reload and is on the public pages', async () => {
        const writes = page.locator('#writes')
        await writes.getByLabel('Reason code').selectOption('other')
        await writes.getByRole('button', { name: 'Pause writes' }).click()
        await dialog().waitFor()
        assert.match(await dialog().innerText(), /Pause writes: all writes \(reason code: other\)\?/)
        await dialog().getByRole('button', { name: 'Confirm' }).click()
        await page.locator('#status', { hasText: 'Pause writes: done.' }).waitFor()
        assert.match(await page.locator('#writes-paused').innerText(), /Posting is paused/)

        await page.reload()
        assert.match(await page.locator('#writes-paused').innerText(), /Posting is paused/, 'read from the server')
        const publicPage = await context.newPage()
        await publicPage.goto(t.url + '/rooms/wonder')
        assert.match(await publicPage.locator('main').innerText(), /Posting is paused/)
        await publicPage.close()

        await writes.getByLabel('Reason code').selectOption('other')
        await writes.getByRole('button', { name: 'Resume writes' }).click()
        await page.locator('#status', { hasText: 'Resume writes: done.' }).waitFor()
        assert.equal(await page.locator('#writes-paused').count(), 0, 'resuming asks nothing and the banner goes')
        await page.reload()
        assert.equal(await page.locator('#writes-paused').count(), 0)
      })

      test('a cancelled quarantine changes nothing and keeps the form; a confirmed one acts', async () => {
        const form = page.locator('#moderate')
        await form.getByLabel('Type').selectOption('contribution')
        await form.getByLabel('Id').fill(String(target))
        await form.getByLabel('Reason code').selectOption('spam')
        await form.getByLabel('Reason (private)').fill('pills')
        await form.getByRole('button', { name: 'Quarantine' }).click()
        await dialog().getByRole('button', { name: 'Cancel' }).click()
        await page.locator('#status', { hasText: 'Quarantine: cancelled.' }).waitFor()
        assert.equal(await thread(target), false)
        assert.equal(await form.getByLabel('Id').inputValue(), String(target), 'the form keeps what was typed')
        assert.equal(await form.getByLabel('Reason (private)').inputValue(), 'pills')

        await form.getByRole('button', { name: 'Quarantine' }).click()
        assert.match(await dialog().innerText(), new RegExp(`contribution ${target} \\(reason code: spam\\)`))
        await dialog().getByRole('button', { name: 'Confirm' }).click()
        await page.locator('#status', { hasText: 'Quarantine: done.' }).waitFor()
        assert.equal(await thread(target), true)
        await op(t, 'release', { reason_code: 'other', target_type: 'contribution', target_id: target, reason: 'x' })
      })

      test('report cards show the reported text, labelled public or quarantined, with a link to it', async () => {
        const open = await report(target, 'spam', `pills again (${width})`)
        const gone = await report(masked, 'harassment', `rude (${width})`)
        await page.getByRole('button', { name: 'Reload queues' }).click()
        const card = page.locator(`[data-case="${open.body.case_id}"]`)
        await card.waitFor()
        assert.match(await card.locator('.reported').innerText(), /Reported text, public/)
        assert.equal(await card.locator('.reported .text').innerText(), 'Buy cheap pills at example.com')
        assert.equal(await card.getByRole('link', { name: 'Open it' }).getAttribute('href'), `/c/${target}#c-${target}`)
        assert.match(await card.innerText(), new RegExp(`pills again \\(${width}\\)`), 'and what the reporter says')
        const maskedCard = page.locator(`[data-case="${gone.body.case_id}"]`)
        assert.match(await maskedCard.locator('.reported').innerText(), /quarantined \(the public sees a notice/)
        assert.equal(await maskedCard.locator('.reported .text').innerText(), 'An insult, already masked')

        assert.equal(await card.getByLabel('Reason code (for a quarantine)').inputValue(), 'spam', 'preset')
        await card.getByRole('button', { name: 'Uphold and quarantine' }).click()
        assert.match(await dialog().innerText(), /\(reason code: spam\)/)
        await dialog().getByRole('button', { name: 'Confirm' }).click()
        await page.locator('#status', { hasText: 'Uphold and quarantine: done.' }).waitFor()
        assert.equal(await thread(target), true)
        await op(t, 'release', { reason_code: 'other', target_type: 'contribution', target_id: target, reason: 'x' })
        await op(t, 'decide_report', { case_id: gone.body.case_id, decision: 'no_action' })
      })
    })
  }

  test('nothing broke in the console', () => assert.deepEqual(problems, []))
})
