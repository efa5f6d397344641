import { createHash } from 'node:crypto'
import { readFileSync } from 'node:fs'
import { Type, type Static } from 'typebox'
import { firstSchemaProblem } from '../services/validation.ts'

/** x402 network of every payment: Base mainnet as a CAIP-2 id. */
export const X402_NETWORK = 'eip155:8453' as const
/** USDC on Base (6 decimals, EIP-712 domain "USD Coin" version "2"). */
export const USDC_BASE = '0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913'
export const USDC_DECIMALS = 6

/** A price in whole USDC with at most 6 decimals ("0.25"), never scientific notation. */
const PRICE_PATTERN = '^(0|[1-9][0-9]{0,8})(\\.[0-9]{1,6})?$'

export const CatalogEntry = Type.Object(
  {
    id: Type.String({ pattern: '^[a-z0-9][a-z0-9_-]{0,63}$', description: 'Stable service id (a-z, 0-9, _ and -).' }),
    title: Type.String({ minLength: 1, maxLength: 120 }),
    description: Type.String({ minLength: 1, maxLength: 2000 }),
    price_usdc: Type.String({ pattern: PRICE_PATTERN, description: 'Price in USDC, e.g. "0.25".' }),
    terms: Type.String({ minLength: 1, maxLength: 4000, description: 'Terms of this service.' }),
  },
  { additionalProperties: false },
)
export type CatalogEntry = Static<typeof CatalogEntry>

export class CatalogError extends Error {}

/**
 * The operator's catalog (SERVICES_FILE): a JSON array of {id, title, description, price_usdc, terms}.
 * Prices may be written as JSON numbers or strings; they are kept as exact decimal strings. Every
 * problem is reported as one line naming the entry, so a bad file stops the start with a clear reason.
 */
export function parseCatalog(text: string, source = 'SERVICES_FILE'): CatalogEntry[] {
  let data: unknown
  try {
    data = JSON.parse(text)
  } catch {
    throw new CatalogError(`${source} is not valid JSON`)
  }
  if (!Array.isArray(data)) throw new CatalogError(`${source} must hold a JSON array of services`)
  const seen = new Set<string>()
  return data.map((raw: unknown, index) => {
    // A price written as a JSON number is checked as its text ("0.25"), on a copy of the entry.
    const fields = typeof raw === 'object' && raw !== null ? { ...(raw as Record<string, unknown>) } : undefined
    if (typeof fields?.price_usdc === 'number') fields.price_usdc = String(fields.price_usdc)
    const problem = firstSchemaProblem(CatalogEntry, fields ?? raw)
    if (problem) throw new CatalogError(`${source} entry ${index}: ${problem.path} ${problem.message}`)
    const entry = fields as CatalogEntry
    if (/^0(\.0+)?$/.test(entry.price_usdc)) throw new CatalogError(`${source} entry ${index}: price_usdc must be > 0`)
    if (seen.has(entry.id)) throw new CatalogError(`${source} entry ${index}: duplicate id "${entry.id}"`)
    seen.add(entry.id)
    return entry
  })
}

export function readCatalog(path: string | null): CatalogEntry[] {
  if (path === null) return []
  let text: string
  try {
    text = readFileSync(path, 'utf8')
  } catch (err) {
    throw new CatalogError(`SERVICES_FILE cannot be read (${(err as NodeJS.ErrnoException).code ?? 'error'}): ${path}`)
  }
  return parseCatalog(text)
}

/** Atomic USDC units of a price: "0.25" -> "250000" (exact decimal arithmetic, no floats). */
export function atomicAmount(priceUsdc: string): string {
  const [whole = '0', fraction = ''] = priceUsdc.split('.')
  return (whole + fraction.padEnd(USDC_DECIMALS, '0')).replace(/^0+(?=\d)/, '')
}

/** Bump the date whenever the general terms below change in substance. */
const TERMS_DATE = '2026-11-22'

const GENERAL_TERMS = [
  'Paid services are optional extras offered by the operators. Participation, reading and posting never need a payment, and no payment unlocks or changes them.',
  'A wallet sign-in signature proves control of the wallet only and authorizes no payment. A payment is authorized only by the separate x402 payment signature you send for one order: its exact amount in USDC on Base (eip155:8453), to the address the order names.',
  'The payment requirement of an order is fixed when the order is made and never changes for that order.',
  'Operators deliver paid orders; you read the delivery with my_commerce, may acknowledge it, and may request a refund until you acknowledge. Refunds are decided and sent by the operators.',
  'Payments settle through the x402 facilitator the operators configured; the service never holds your funds or keys. Orders and agreements are kept with the signed-in wallet address, privately.',
]

/**
 * The terms a buyer accepts: the general terms plus each service's own. The version is the date of
 * the general terms and a digest of the whole text, so any change to any service's terms asks for
 * a new acceptance.
 */
export function catalogTerms(catalog: readonly CatalogEntry[]): { version: string; text: string } {
  const text = [
    ...GENERAL_TERMS,
    ...catalog.map((service) => `Service "${service.id}" (${service.title}): ${service.terms}`),
  ].join('\n')
  const digest = createHash('sha256').update(text, 'utf8').digest('hex').slice(0, 12)
  return { version: `${TERMS_DATE}.${digest}`, text }
}
