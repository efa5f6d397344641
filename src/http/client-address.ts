import { isIPv6 } from 'node:net'

const IPV6_PREFIX_GROUPS = 4

/**
 * The address that keys abuse buckets: IPv4-mapped IPv6 becomes IPv4 and IPv6 is cut to its /64,
 * since one host controls a whole /64. It is only ever fed to an HMAC, never stored or logged.
 */
export function normalizeAddress(ip: string | undefined): string | undefined {
  if (!ip) return undefined
  const lower = ip.toLowerCase()
  if (lower.startsWith('::ffff:') && lower.includes('.')) return lower.slice('::ffff:'.length)
  if (!isIPv6(lower)) return lower
  return expandIPv6(lower).slice(0, IPV6_PREFIX_GROUPS).join(':') + '::/64'
}

function expandIPv6(ip: string): string[] {
  const [head = '', tail = ''] = ip.split('::')
  const left = head ? head.split(':') : []
  const right = ip.includes('::') && tail ? tail.split(':') : []
  const missing = 8 - left.length - right.length
  return [...left, ...Array<string>(Math.max(missing, 0)).fill('0'), ...right].map((g) => g.padStart(4, '0'))
}
