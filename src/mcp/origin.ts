import type { Config } from '../config.ts'

const LOOPBACK_HOSTS = new Set(['localhost', '127.0.0.1', '[::1]', '::1'])

export interface OriginPolicy {
  /** True when a request with these headers may reach the MCP transport. */
  allows(headers: { origin?: string | undefined; host?: string | undefined }): boolean
}

/**
 * DNS-rebinding protection (MCP transports spec, "Security Warning"). A present Origin must be on the
 * allow-list: MCP_ALLOWED_ORIGINS, or when that is empty the service's own origin plus, on a
 * loopback-bound server, http://localhost and http://127.0.0.1 on any port. A loopback-bound server
 * also checks Host, since a rebound name reaches it with a foreign Host. Clients that send no Origin
 * (non-browser agents) pass. `*` in MCP_ALLOWED_ORIGINS turns the Origin check off.
 */
export function originPolicy(config: Config, baseUrl: () => string): OriginPolicy {
  const loopback = LOOPBACK_HOSTS.has(config.host)
  const configured = new Set(config.mcpAllowedOrigins.map(normalizeOrigin))
  const anyOrigin = configured.has('*')

  const originAllowed = (origin: string): boolean => {
    if (anyOrigin) return true
    const normalized = normalizeOrigin(origin)
    if (configured.size) return configured.has(normalized)
    if (normalized === normalizeOrigin(baseUrl())) return true
    return loopback && isLoopbackOrigin(normalized)
  }

  const hostAllowed = (host: string | undefined): boolean => {
    if (!loopback) return true
    if (host === undefined) return false
    const name = hostname(host)
    return LOOPBACK_HOSTS.has(name) || name === hostname(new URL(baseUrl()).host)
  }

  return {
    allows: ({ origin, host }) => hostAllowed(host) && (origin === undefined || originAllowed(origin)),
  }
}

function normalizeOrigin(value: string): string {
  if (value === '*') return value
  try {
    const url = new URL(value)
    return url.origin === 'null' ? value.toLowerCase() : url.origin
  } catch {
    return value.toLowerCase()
  }
}

function isLoopbackOrigin(origin: string): boolean {
  try {
    const url = new URL(origin)
    return (url.protocol === 'http:' || url.protocol === 'https:') && LOOPBACK_HOSTS.has(url.hostname)
  } catch {
    return false
  }
}

/** "example.com:8080" -> "example.com", "[::1]:80" -> "[::1]", lower case. */
function hostname(host: string): string {
  const lower = host.toLowerCase()
  if (lower.startsWith('[')) return lower.slice(0, lower.indexOf(']') + 1)
  return lower.split(':')[0] ?? lower
}
