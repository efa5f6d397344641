import { createHash } from 'node:crypto'
import { canonicalJson } from '../canonical-json.ts'
import { CHAINS, GENESIS, nextChainHash, type ChainName, type ChainRecord } from './records.ts'
import { verifyDetached, type SigningKeyDocument } from './signer.ts'

/** What `npm run verify -- --save` writes and checks offline: the key, each chain's signed head and records. */
export interface HistoryExport {
  format: 'clearing-history/1'
  source: string
  signing_key: SigningKeyDocument
  chains: Record<ChainName, { head: Head; records: Array<{ record: ChainRecord; content: string | null }> }>
  receipts?: Array<{ record: ChainRecord; signature: string }>
}

interface Head {
  chain: ChainName
  last_id: number
  chain_hash: string
  signature: string
}

export type CheckResult = { ok: true; summary: string } | { ok: false; problem: string }

const sha256Hex = (text: string) => createHash('sha256').update(text, 'utf8').digest('hex')

/**
 * The keys that may have signed a record made at `at`: the current one, and each retired one whose
 * validity holds that time. A retired key that leaked after its rotation cannot date a receipt later.
 * Heads carry no time (they are signed afresh when read), so any listed key may have signed one.
 */
function keysAt(document: SigningKeyDocument, at: string): Array<{ kid: string; x: string }> {
  const time = Date.parse(at)
  const valid = document.previous.filter(
    (key) =>
      time <= Date.parse(key.valid_until) && (key.valid_from === undefined || Date.parse(key.valid_from) <= time),
  )
  return [document, ...valid]
}

/**
 * Checks an export as anyone holding only the public key would (docs/verification.md): each head's
 * signature, each record's text against its digest (unless masked), the chain from genesis to the
 * signed head, and each receipt's signature and its match with the history. Stops at the first
 * problem, naming the record.
 */
export function checkHistory(history: HistoryExport, receipts = history.receipts ?? []): CheckResult {
  const keys = [history.signing_key, ...history.signing_key.previous]
  const counts: string[] = []
  const byId = new Map<string, ChainRecord>()
  for (const chain of CHAINS) {
    const { head, records } = history.chains[chain]
    const { signature, ...signed } = head
    if (head.chain !== chain || !verifyDetached(signature, signed, keys)) {
      return { ok: false, problem: `${chain}: the chain head's signature does not verify` }
    }
    let hash: Buffer = GENESIS
    let last = 0
    for (const { record, content: text } of records) {
      if (record.id > head.last_id) break
      if (record.id !== last + 1) {
        const what = record.id > last + 1 ? `record ${last + 1} is missing` : `record ${record.id} is out of order`
        return { ok: false, problem: `${chain}: ${what}` }
      }
      if (text !== null && sha256Hex(text) !== record.content_digest) {
        return { ok: false, problem: `${chain}: record ${record.id}'s text does not match its content_digest` }
      }
      hash = nextChainHash(hash, record)
      last = record.id
      byId.set(`${record.type}:${record.id}`, record)
    }
    if (last !== head.last_id)
      return { ok: false, problem: `${chain}: records end at ${last}, the head at ${head.last_id}` }
    if (hash.toString('hex') !== head.chain_hash) {
      return {
        ok: false,
        problem: `${chain}: the chain of records 1-${last} does not reach the signed head: a record was changed, removed or reordered`,
      }
    }
    counts.push(`${chain} ${last}`)
  }
  for (const receipt of receipts) {
    const name = `${receipt.record.type} ${receipt.record.id}`
    if (!verifyDetached(receipt.signature, receipt.record, keysAt(history.signing_key, receipt.record.created_at))) {
      const problem = verifyDetached(receipt.signature, receipt.record, keys)
        ? `the key that signed it was retired before the record's created_at (${receipt.record.created_at})`
        : 'the signature does not verify'
      return { ok: false, problem: `receipt for ${name}: ${problem}` }
    }
    const stored = byId.get(`${receipt.record.type}:${receipt.record.id}`)
    if (stored && canonicalJson(stored) !== canonicalJson(receipt.record)) {
      return { ok: false, problem: `receipt for ${name}: the history holds another record under that id` }
    }
  }
  return {
    ok: true,
    summary: `ok: ${counts.join(', ')} records chained to signed heads (key ${history.signing_key.kid}), ${receipts.length} receipts verified`,
  }
}
