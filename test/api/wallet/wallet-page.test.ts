import assert from 'node:assert/strict'
import { describe, test } from 'node:test'
import { runInNewContext } from 'node:vm'
import type { PrivateKeyAccount } from 'viem/accounts'
import { WALLET_PAGE_CSP } from '../../../src/web/wallet/page.ts'
import { startServer, type TestServer, useServer } from '../../support/harness.ts'
import { newAccount, sharedWalletFakes, TIP_ADDRESS } from '../../support/wallet.ts'

const text = async (t: TestServer, path: string) => {
  const res = await fetch(t.url + path)
  return { status: res.status, headers: res.headers, body: await res.text() }
}

describe('the /wallet page', () => {
  const { t } = useServer({ config: { walletDomain: 'wallet.example.org' } })

  test('is server-rendered under a strict policy: one same-origin script, no inline code', async () => {
    const page = await text(t, '/wallet')
    assert.equal(page.status, 200)
    assert.match(page.headers.get('content-type') ?? '', /^text\/html/)
    assert.equal(page.headers.get('content-security-policy'), WALLET_PAGE_CSP)
    for (const directive of ["script-src 'self'", "style-src 'self'", "connect-src 'self'", "frame-ancestors 'none'"]) {
      assert.ok(WALLET_PAGE_CSP.includes(directive), directive)
    }
    const scripts = page.body.match(/<script[^>]*>/g) ?? []
    assert.deepEqual(scripts, ['<script src="/wallet.js" defer>'])
    assert.ok(!/<script>[^<]/.test(page.body) && !/\son[a-z]+=/i.test(page.body) && !/\sstyle=/.test(page.body))
    assert.ok(!/(src|href)="(https?:)?\/\//.test(page.body), 'nothing from another origin')
    assert.ok(page.body.includes('<code>wallet.example.org</code>'))
    assert.ok(page.body.includes(TIP_ADDRESS))
    assert.ok(page.body.includes('authorizes no payment'))
  })

  test('serves its script and stylesheet under the same policy', async () => {
    const script = await text(t, '/wallet.js')
    assert.equal(script.status, 200)
    assert.match(script.headers.get('content-type') ?? '', /^text\/javascript/)
    assert.equal(script.headers.get('content-security-policy'), WALLET_PAGE_CSP)
    assert.ok(!/https?:\/\//.test(script.body.replace(/^\s*\/\/.*$/gm, '')), 'calls only its own origin')
    const style = await text(t, '/wallet.css')
    assert.equal(style.status, 200)
    assert.match(style.headers.get('content-type') ?? '', /^text\/css/)
  })

  test('the API keeps its own policy', async () => {
    const api = await fetch(`${t.url}/api/wallet?view=config`)
    assert.equal(api.headers.get('content-security-policy'), "default-src 'none';frame-ancestors 'none'")
  })

  test('without tips configured the page says so and hides the form; its text is escaped', async () => {
    const bare = await startServer({ config: { tipAddress: null, publicBaseUrl: "http://example.org/a'b<c>" } })
    try {
      const page = await text(bare, '/wallet')
      assert.ok(page.body.includes('Tips are not configured'))
      assert.ok(page.body.includes('<form id="tip-form" hidden>'))
      assert.ok(page.body.includes('http://example.org/a&#39;b&lt;c&gt;') && !page.body.includes('b<c>'), 'escaped')
    } finally {
      await bare.close()
    }
  })

  test('its script signs in with an injected wallet, shows the session, links a participant and verifies a tip', async () => {
    const account = newAccount()
    const page = await runPage(t, account)
    await page.loaded
    assert.equal(page.el('session-status').textContent, 'Not signed in.')

    await page.click('sign-in')
    console.log(t.logs.filter((l) => l.includes('"level":50')).join('\n'))
    assert.match(page.el('session-status').textContent, new RegExp(`Signed in as ${account.address} until `))
    assert.match(page.cookie(), /^__Host-clearing_wallet=clrs_/, 'the session lives in the cookie')
    assert.equal(page.el('sign-out').hidden, false)

    const me = await t.join('Page User', 'p')
    await page.submit('link-form', { key: me.key })
    assert.equal(page.el('link-status').textContent, 'Linked.')
    assert.ok(page.el('linked').children.some((c) => c.textContent.includes('Page User')))

    const fakes = await sharedWalletFakes()
    const hash = fakes.chain.addTx({ to: TIP_ADDRESS, from: account.address })
    await page.submit('tip-form', { tx_hash: hash })
    assert.match(page.el('tip-status').textContent, /^Receipt [0-9a-f-]{36}: 1000000000000000 wei, 5 confirmations\.$/)
    assert.ok(page.el('linked').children.some((c) => c.textContent.startsWith('Tip receipt')))

    await page.click('sign-out')
    assert.equal(page.el('session-status').textContent, 'Not signed in.')
    assert.equal(page.cookie(), '', 'the cookie is cleared')
  })
})

interface FakeElement {
  textContent: string
  hidden: boolean
  children: FakeElement[]
  listeners: Record<string, (event: unknown) => Promise<void>>
  elements: Record<string, { value: string }>
}

/**
 * Runs /wallet.js as a browser would, in a small fake DOM: an EIP-1193 provider backed by a viem
 * account, and a fetch that behaves like a same-origin browser request (cookie jar, Sec-Fetch-Site).
 */
async function runPage(t: TestServer, account: PrivateKeyAccount) {
  const source = await (await fetch(`${t.url}/wallet.js`)).text()
  const make = (): FakeElement => ({ textContent: '', hidden: false, children: [], listeners: {}, elements: {} })
  const ids = ['session-status', 'sign-in', 'sign-out', 'linked', 'link-form', 'link-status', 'tip-form', 'tip-status']
  const elements = Object.fromEntries(ids.map((id) => [id, make()])) as Record<string, FakeElement>
  for (const element of Object.values(elements)) {
    Object.assign(element, {
      addEventListener: (type: string, fn: FakeElement['listeners'][string]) => (element.listeners[type] = fn),
      replaceChildren: () => (element.children = []),
      append: (child: FakeElement) => element.children.push(child),
      reset: () => {},
    })
  }
  let jar = ''
  const browserFetch = async (path: string, init: RequestInit) => {
    const res = await fetch(t.url + path, {
      ...init,
      headers: { ...(init.headers as Record<string, string>), cookie: jar, 'sec-fetch-site': 'same-origin' },
    })
    const set = res.headers.get('set-cookie')
    if (set) jar = /Max-Age=0/.test(set) ? '' : (set.split(';')[0] ?? '')
    return res
  }
  const ethereum = {
    request: async ({ method, params }: { method: string; params?: string[] }) => {
      if (method === 'eth_requestAccounts') return [account.address]
      if (method === 'personal_sign') return account.signMessage({ message: { raw: params?.[0] as `0x${string}` } })
      throw new Error(`unsupported ${method}`)
    },
  }
  let onLoad: () => Promise<void> = async () => {}
  const window = {
    ethereum,
    addEventListener: (type: string, fn: () => Promise<void>) => {
      if (type === 'DOMContentLoaded') onLoad = fn
    },
  }
  const document = { getElementById: (id: string) => elements[id], createElement: make }
  runInNewContext(source, { window, document, fetch: browserFetch, TextEncoder, console })
  // The handlers are async and not awaited by the page: wait until requests settle.
  const settle = () => new Promise((resolve) => setTimeout(resolve, 300))
  const loaded = (async () => {
    onLoad()
    await settle()
  })()
  return {
    loaded,
    el: (id: string) => elements[id] as FakeElement,
    cookie: () => jar,
    async click(id: string) {
      await elements[id]?.listeners.click?.({})
      await settle()
    },
    async submit(id: string, values: Record<string, string>) {
      const form = elements[id] as FakeElement
      form.elements = Object.fromEntries(Object.entries(values).map(([k, v]) => [k, { value: v }]))
      await form.listeners.submit?.({ preventDefault: () => {}, target: form })
      await settle()
    },
  }
}
