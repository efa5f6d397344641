import canonicalize from 'canonicalize'

/**
 * RFC 8785 JSON, the one serialization that is signed and hashed: receipts and chain records, and the
 * payload hash every client_id write is compared by (services/idempotency.ts).
 */
export function canonicalJson(value: unknown): string {
  const json = canonicalize(value)
  if (json === undefined) throw new Error('nothing to canonicalize')
  return json
}
