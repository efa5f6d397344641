import { Type, type Static } from 'typebox'
import { Value } from 'typebox/value'

/** The runtime contract of DESIGN.md: every setting, its env name and default, in one schema. */
export const ConfigSchema = Type.Object({
  port: Type.Integer({ minimum: 0, maximum: 65535 }),
  host: Type.String({ minLength: 1 }),
  publicBaseUrl: Type.Union([Type.String({ pattern: '^https?://' }), Type.Null()]),
  databaseUrl: Type.String({ minLength: 1 }),
  operatorKey: Type.Union([Type.String({ minLength: 16 }), Type.Null()]),
  reviewKey: Type.Union([Type.String({ minLength: 16 }), Type.Null()]),
  contributionIntervalSeconds: Type.Integer({ minimum: 0 }),
  registrationRatePerMinute: Type.Integer({ minimum: 1 }),
  registrationCapacity: Type.Integer({ minimum: 0 }),
  trustProxy: Type.Union([Type.Boolean(), Type.String({ minLength: 1 })]),
  logLevel: Type.Union([
    Type.Literal('fatal'),
    Type.Literal('error'),
    Type.Literal('warn'),
    Type.Literal('info'),
    Type.Literal('debug'),
    Type.Literal('trace'),
    Type.Literal('silent'),
  ]),
  mcpAllowedOrigins: Type.Array(Type.String()),
  smtpUrl: Type.Union([Type.String({ minLength: 1 }), Type.Null()]),
  alertEmailTo: Type.Union([Type.String({ minLength: 3 }), Type.Null()]),
  alertEmailFrom: Type.String({ minLength: 3 }),
  maintenanceIntervalSeconds: Type.Integer({ minimum: 0 }),
})
export type Config = Static<typeof ConfigSchema>

/** Documented env names, their config field and default: the README table is generated from this list. */
export const ENV = [
  ['PORT', 'port', '8080', 'HTTP port'],
  ['HOST', 'host', '127.0.0.1', 'interface to listen on'],
  ['PUBLIC_BASE_URL', 'publicBaseUrl', 'http://HOST:PORT', 'absolute base for URLs in the descriptor and feed'],
  ['DATABASE_URL', 'databaseUrl', 'sqlite:./data/clearing.sqlite', 'sqlite:/path, sqlite::memory: or postgres://...'],
  ['OPERATOR_KEY', 'operatorKey', 'unset', 'operator secret (>= 16 chars); operator actions answer 403 while unset'],
  ['REVIEW_KEY', 'reviewKey', 'OPERATOR_KEY', 'secret for review_feedback'],
  ['CONTRIBUTION_INTERVAL_SECONDS', 'contributionIntervalSeconds', '30', 'minimum gap between accepted contributions'],
  ['REGISTRATION_RATE_PER_MINUTE', 'registrationRatePerMinute', '20', 'joins per abuse bucket per minute'],
  ['REGISTRATION_CAPACITY', 'registrationCapacity', '10000', 'total participants that may register'],
  ['TRUST_PROXY', 'trustProxy', 'false', 'true, or the proxy address/CIDR list whose X-Forwarded-For is trusted'],
  ['LOG_LEVEL', 'logLevel', 'info', 'pino level (silent to trace)'],
  ['MCP_ALLOWED_ORIGINS', 'mcpAllowedOrigins', 'PUBLIC_BASE_URL origin', 'comma-separated Origins allowed on /api/mcp'],
  ['SMTP_URL', 'smtpUrl', 'unset', 'smtp(s)://user:pass@host:port for operator alerts; unset logs them'],
  ['ALERT_EMAIL_TO', 'alertEmailTo', 'unset', 'operator address for alerts'],
  ['ALERT_EMAIL_FROM', 'alertEmailFrom', 'clearing@localhost', 'sender address for alerts'],
  ['MAINTENANCE_INTERVAL_SECONDS', 'maintenanceIntervalSeconds', '3600', 'in-server maintenance period (0 disables)'],
] as const

export class ConfigError extends Error {}

type Env = Record<string, string | undefined>

function int(env: Env, name: string, fallback: number): number {
  const raw = env[name]
  if (raw === undefined || raw === '') return fallback
  if (!/^\d+$/.test(raw)) throw new ConfigError(`${name} must be a whole number, got "${raw}"`)
  return Number(raw)
}

function text(env: Env, name: string): string | null {
  const raw = env[name]?.trim()
  return raw ? raw : null
}

function trustProxy(raw: string | null): boolean | string {
  if (raw === null || raw === 'false') return false
  if (raw === 'true') return true
  return raw
}

/** Builds and validates the config; invalid settings stop the start with a one-line reason. */
export function loadConfig(env: Env = process.env): Config {
  const operatorKey = text(env, 'OPERATOR_KEY')
  const config: Config = {
    port: int(env, 'PORT', 8080),
    host: text(env, 'HOST') ?? '127.0.0.1',
    publicBaseUrl: text(env, 'PUBLIC_BASE_URL')?.replace(/\/+$/, '') ?? null,
    databaseUrl: text(env, 'DATABASE_URL') ?? 'sqlite:./data/clearing.sqlite',
    operatorKey,
    reviewKey: text(env, 'REVIEW_KEY') ?? operatorKey,
    contributionIntervalSeconds: int(env, 'CONTRIBUTION_INTERVAL_SECONDS', 30),
    registrationRatePerMinute: int(env, 'REGISTRATION_RATE_PER_MINUTE', 20),
    registrationCapacity: int(env, 'REGISTRATION_CAPACITY', 10000),
    trustProxy: trustProxy(text(env, 'TRUST_PROXY')),
    logLevel: (text(env, 'LOG_LEVEL') ?? 'info') as Config['logLevel'],
    mcpAllowedOrigins: (text(env, 'MCP_ALLOWED_ORIGINS') ?? '')
      .split(',')
      .map((o) => o.trim())
      .filter(Boolean),
    smtpUrl: text(env, 'SMTP_URL'),
    alertEmailTo: text(env, 'ALERT_EMAIL_TO'),
    alertEmailFrom: text(env, 'ALERT_EMAIL_FROM') ?? 'clearing@localhost',
    maintenanceIntervalSeconds: int(env, 'MAINTENANCE_INTERVAL_SECONDS', 3600),
  }
  return validateConfig(config)
}

export function validateConfig(config: Config): Config {
  if (!Value.Check(ConfigSchema, config)) {
    const [first] = Value.Errors(ConfigSchema, config)
    const field = first?.instancePath.replace(/^\//, '') ?? 'config'
    const envName = ENV.find(([, key]) => key === field)?.[0] ?? field
    throw new ConfigError(`Invalid configuration: ${envName} ${first?.message ?? 'is invalid'}`)
  }
  return config
}

/** A config for tests and tools: defaults plus the given overrides, never read from process.env. */
export function testConfig(overrides: Partial<Config> = {}): Config {
  const config = { ...loadConfig({}), databaseUrl: 'sqlite::memory:', logLevel: 'silent' as const, ...overrides }
  // The same fallback as the environment: without its own REVIEW_KEY, reviews take the operator key.
  return validateConfig({ ...config, reviewKey: overrides.reviewKey ?? config.operatorKey })
}

export function baseUrlOf(config: Config, listeningPort?: number): string {
  return config.publicBaseUrl ?? `http://${config.host}:${listeningPort ?? config.port}`
}
