import { readFileSync, writeFileSync } from 'node:fs'
import { checkHistory, type HistoryExport } from '../services/receipts/check.ts'
import { CHAINS, type ChainName } from '../services/receipts/records.ts'
import type { SigningKeyDocument } from '../services/receipts/signer.ts'

const PAGE = 100

/**
 * `npm run verify -- <base URL | export file> [--save <file>] [--receipts <file>]`: checks the public
 * history against the server's signed chain heads with only its public key (docs/verification.md).
 * From a URL it reads the key and pages the chain view; --save writes what it read, for an offline
 * check later. Exit 0 with a one-line summary, 1 naming the first broken record.
 */
export async function verifyCommand(argv: string[]): Promise<void> {
  const args = argv.filter((arg) => arg !== '--')
  const option = (name: string) => {
    const at = args.indexOf(name)
    if (at === -1) return undefined
    const [value] = args.splice(at, 2).slice(1)
    if (value === undefined) throw new Error(`${name} needs a file`)
    return value
  }
  const save = option('--save')
  const receiptsFile = option('--receipts')
  const [source] = args
  if (source === undefined)
    throw new Error('usage: npm run verify -- <base URL | export file> [--save <file>] [--receipts <file>]')
  const history = /^https?:\/\//.test(source)
    ? await download(source)
    : (JSON.parse(readFileSync(source, 'utf8')) as HistoryExport)
  if (receiptsFile !== undefined) {
    const given = JSON.parse(readFileSync(receiptsFile, 'utf8')) as unknown
    history.receipts = [...(history.receipts ?? []), ...(Array.isArray(given) ? given : [given])]
  }
  if (save !== undefined) writeFileSync(save, JSON.stringify(history))
  const result = checkHistory(history)
  if (result.ok) console.log(result.summary)
  else {
    console.log(`broken: ${result.problem}`)
    process.exitCode = 1
  }
}

async function download(base: string): Promise<HistoryExport> {
  const root = base.replace(/\/+$/, '')
  const signingKey = (await getJson(`${root}/.well-known/clearing-signing-key`)) as SigningKeyDocument
  const chains = {} as HistoryExport['chains']
  for (const chain of CHAINS) chains[chain] = await readChain(root, chain)
  return { format: 'clearing-history/1', source: root, signing_key: signingKey, chains }
}

/** Pages a chain up to the head its first page names (later writes wait for the next check). */
async function readChain(root: string, chain: ChainName): Promise<HistoryExport['chains'][ChainName]> {
  type Page = { records: HistoryExport['chains'][ChainName]['records']; next_cursor: number; has_more: boolean }
  const first = (await getJson(`${root}/api/clearing?view=chain&chain=${chain}&limit=${PAGE}`)) as Page & {
    head: HistoryExport['chains'][ChainName]['head']
  }
  const { head } = first
  const records = [...first.records]
  let page: Page = first
  while (page.has_more && page.next_cursor < head.last_id) {
    const after = page.next_cursor
    page = (await getJson(`${root}/api/clearing?view=chain&chain=${chain}&after=${after}&limit=${PAGE}`)) as Page
    records.push(...page.records)
  }
  return { head, records: records.filter((entry) => entry.record.id <= head.last_id) }
}

async function getJson(url: string): Promise<unknown> {
  const res = await fetch(url, { headers: { accept: 'application/json' } })
  if (!res.ok) throw new Error(`${url} answered ${res.status}`)
  return res.json()
}
