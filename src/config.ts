import { createPrivateKey } from 'node:crypto'
import { readFileSync } from 'node:fs'
import { Type, type Static } from 'typebox'
import { CatalogEntry, CatalogError, readCatalog } from './payments/catalog.ts'
import { SecretPatternsError, readSecretPatterns } from './services/secret-scan/operator-patterns.ts'
import { guessesLog10 } from './services/secret-strength.ts'
import { firstSchemaProblem } from './services/validation.ts'

/** Past 32 leading zero bits a challenge takes an ordinary client hours: no setting goes higher. */
const MAX_POW_BITS = 32
/** Unless set, the adaptive difficulty rises at most this many bits above the base. */
const POW_ADAPTIVE_BITS = 8
const EvmAddress = Type.String({ pattern: '^0x[0-9a-fA-F]{40}$' })
const HttpUrl = Type.String({ pattern: '^https?://[^\\s]+$' })
/** A public key no longer signing, kept so receipts it signed still verify (docs/verification.md). */
const RetiredSigningKey = Type.Object({
  kty: Type.Literal('OKP'),
  crv: Type.Literal('Ed25519'),
  x: Type.String({ pattern: '^[A-Za-z0-9_-]{43}$' }),
  valid_from: Type.Optional(Type.String({ format: 'date-time' })),
  valid_until: Type.String({ format: 'date-time' }),
})

/** The runtime contract of DESIGN.md: every setting, its env name and default, in one schema. */
export const ConfigSchema = Type.Object({
  port: Type.Integer({ minimum: 0, maximum: 65535 }),
  host: Type.String({ minLength: 1 }),
  publicBaseUrl: Type.Union([Type.String({ pattern: '^https?://' }), Type.Null()]),
  databaseUrl: Type.String({ minLength: 1 }),
  // Their length and strength are checked after the schema (checkOperatorSecrets), with advice.
  operatorKey: Type.Union([Type.String({ minLength: 1 }), Type.Null()]),
  reviewKey: Type.Union([Type.String({ minLength: 1 }), Type.Null()]),
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
  keyPepper: Type.Union([Type.String({ minLength: 32 }), Type.Null()]),
  /** The Ed25519 receipt signing key, PKCS#8 PEM (src/signing-key.ts checks it). */
  signingKey: Type.Union([Type.String({ minLength: 1 }), Type.Null()]),
  signingKeysRetiredFile: Type.Union([Type.String({ minLength: 1 }), Type.Null()]),
  /** The retired public keys read from SIGNING_KEYS_RETIRED at start (tests give them directly). */
  signingKeysRetired: Type.Array(RetiredSigningKey),
  requestTimeoutSeconds: Type.Integer({ minimum: 1, maximum: 3600 }),
  checkContracts: Type.Boolean(),
  pilotEnabled: Type.Boolean(),
  // An RFC 3986 authority (host, optional port), as EIP-4361 requires of the domain.
  walletDomain: Type.Union([
    Type.String({ pattern: '^(\\[[0-9A-Fa-f:.]+\\]|[A-Za-z0-9](?:[A-Za-z0-9.-]*[A-Za-z0-9])?)(:[0-9]{1,5})?$' }),
    Type.Null(),
  ]),
  walletRpcUrl: Type.Union([HttpUrl, Type.Null()]),
  walletRpcTimeoutSeconds: Type.Integer({ minimum: 1, maximum: 60 }),
  tipAddress: Type.Union([EvmAddress, Type.Null()]),
  tipMinConfirmations: Type.Integer({ minimum: 1, maximum: 10000 }),
  servicesFile: Type.Union([Type.String({ minLength: 1 }), Type.Null()]),
  /** The catalog read from SERVICES_FILE at start (tests give it directly). */
  services: Type.Array(CatalogEntry),
  x402PayTo: Type.Union([EvmAddress, Type.Null()]),
  x402FacilitatorUrl: Type.Union([HttpUrl, Type.Null()]),
  x402FacilitatorTimeoutSeconds: Type.Integer({ minimum: 1, maximum: 120 }),
  metricsToken: Type.Union([Type.String({ minLength: 16 }), Type.Null()]),
  secretPatternsFile: Type.Union([Type.String({ minLength: 1 }), Type.Null()]),
  /** The operator patterns read from SECRET_PATTERNS_FILE at start (tests give them directly). */
  secretPatterns: Type.Array(
    Type.Object({ kind: Type.String(), pattern: Type.String(), flags: Type.Optional(Type.String()) }),
  ),
  secretScanTimeoutMs: Type.Integer({ minimum: 10, maximum: 10000 }),
  // Proof of work on join and keyless drafts (services/proof-of-work.ts): 0 leading zero bits is off.
  powDifficulty: Type.Integer({ minimum: 0, maximum: MAX_POW_BITS }),
  powMaxDifficulty: Type.Integer({ minimum: 0, maximum: MAX_POW_BITS }),
  powChallengeSeconds: Type.Integer({ minimum: 30, maximum: 3600 }),
})
export type Config = Static<typeof ConfigSchema>

/**
 * Documented env names, their config field, default and meaning: the README's table and docs/reference.md
 * are generated from this list (npm run docs:reference).
 */
export const ENV = [
  ['PORT', 'port', '8080', 'HTTP port'],
  ['HOST', 'host', '127.0.0.1', 'interface to listen on'],
  ['PUBLIC_BASE_URL', 'publicBaseUrl', 'http://HOST:PORT', 'absolute base for URLs in the descriptor and feed'],
  ['DATABASE_URL', 'databaseUrl', 'sqlite:./data/clearing.sqlite', 'sqlite:/path, sqlite::memory: or postgres://...'],
  [
    'OPERATOR_KEY',
    'operatorKey',
    'unset',
    'operator secret (>= 20 chars, hard to guess: 32 random bytes, base64url); operator actions answer 403 while unset',
  ],
  ['REVIEW_KEY', 'reviewKey', 'OPERATOR_KEY', 'secret for review_feedback (the same strength rule)'],
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
  [
    'KEY_PEPPER',
    'keyPepper',
    'SQLite: generated into DB_DIR/key-pepper',
    'secret (>= 32 chars) keyed into every stored key digest and abuse bucket; required with PostgreSQL, same on every instance, never changed',
  ],
  [
    'SIGNING_KEY',
    'signingKey',
    'SQLite: generated into DB_DIR/signing-key.pem',
    'Ed25519 private key (PKCS#8 PEM) that signs receipts and the chain head; required with PostgreSQL, same on every instance (docs/verification.md)',
  ],
  [
    'SIGNING_KEYS_RETIRED',
    'signingKeysRetiredFile',
    'unset',
    'JSON array of retired public keys [{kty, crv, x, valid_from?, valid_until}] still listed so old receipts verify',
  ],
  [
    'REQUEST_TIMEOUT_SECONDS',
    'requestTimeoutSeconds',
    '30',
    'a request (headers and body) must arrive within this time, or the connection is closed',
  ],
  ['WALLET_DOMAIN', 'walletDomain', 'host of PUBLIC_BASE_URL', 'EIP-4361 domain wallet sign-in messages must name'],
  [
    'WALLET_RPC_URL',
    'walletRpcUrl',
    'unset',
    'JSON-RPC endpoint of Base (chain 8453) for tip checks and payment reconciliation',
  ],
  ['WALLET_RPC_TIMEOUT_SECONDS', 'walletRpcTimeoutSeconds', '5', 'time limit of each JSON-RPC call (1-60)'],
  ['TIP_ADDRESS', 'tipAddress', 'unset', 'address that receives native-token tips; tips answer 503 while unset'],
  ['TIP_MIN_CONFIRMATIONS', 'tipMinConfirmations', '3', 'confirmations a tip needs before it is recorded'],
  [
    'SERVICES_FILE',
    'servicesFile',
    'unset (no services)',
    'JSON catalog of paid services [{id, title, description, price_usdc, terms}]; payments stay inactive while empty',
  ],
  ['X402_PAY_TO', 'x402PayTo', 'unset', 'address that receives USDC payments; required with a catalog'],
  [
    'X402_FACILITATOR_URL',
    'x402FacilitatorUrl',
    'unset',
    'x402 facilitator that verifies and settles payments (a Base mainnet one); required with a catalog',
  ],
  [
    'X402_FACILITATOR_TIMEOUT_SECONDS',
    'x402FacilitatorTimeoutSeconds',
    '20',
    'time limit of each facilitator call (1-120)',
  ],
  [
    'PILOT_ENABLED',
    'pilotEnabled',
    'true',
    'the hosted pilot acts once per UTC two-hour slot (false: only run_pilot acts)',
  ],
  [
    'CHECK_CONTRACTS',
    'checkContracts',
    'false',
    'development: check every result and error against its published contract',
  ],
  [
    'SECRET_PATTERNS_FILE',
    'secretPatternsFile',
    'unset (built-in rules only)',
    'JSON array [{kind, pattern, flags?}] of extra secret patterns every stored text is scanned for; a bad file stops the start',
  ],
  [
    'SECRET_SCAN_TIMEOUT_MS',
    'secretScanTimeoutMs',
    '1000',
    'time limit of the secret scan of one write (10-10000); past it the write is refused with 503, nothing stored',
  ],
  [
    'POW_DIFFICULTY',
    'powDifficulty',
    '0 (off)',
    'leading zero bits of SHA-256 a proof of work on join and keyless drafts needs (0-32); see docs/proof-of-work.md',
  ],
  [
    'POW_MAX_DIFFICULTY',
    'powMaxDifficulty',
    'POW_DIFFICULTY + 8 (at most 32)',
    'the most bits the difficulty rises to while joins or drafts of the last minute run near their rate limit',
  ],
  ['POW_CHALLENGE_SECONDS', 'powChallengeSeconds', '300', 'how long a proof-of-work challenge stays valid (30-3600)'],
  [
    'METRICS_TOKEN',
    'metricsToken',
    'unset',
    'bearer token (>= 16 chars) for GET /metrics (Prometheus); unset: no /metrics (404)',
  ],
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

function bool(env: Env, name: string, fallback: boolean): boolean {
  const raw = text(env, name)
  if (raw === null) return fallback
  if (raw === 'true' || raw === 'false') return raw === 'true'
  throw new ConfigError(`${name} must be true or false, got "${raw}"`)
}

const DATABASE_SCHEMES = ['sqlite:', 'postgres://', 'postgresql://']

function databaseUrl(raw: string | null): string {
  const url = raw ?? 'sqlite:./data/clearing.sqlite'
  if (DATABASE_SCHEMES.some((scheme) => url.startsWith(scheme))) return url
  throw new ConfigError(
    `DATABASE_URL must start with ${DATABASE_SCHEMES.join(', ')} (e.g. sqlite:./data/clearing.sqlite), got "${url.split(':')[0]}:..."`,
  )
}

/** An SMTP URL nodemailer can use; its credentials never appear in the message. */
function smtpUrl(raw: string | null): string | null {
  if (raw === null) return null
  let url: URL
  try {
    url = new URL(raw)
  } catch {
    throw new ConfigError('SMTP_URL is not a URL: use smtp://user:pass@host:587 or smtps://user:pass@host:465')
  }
  if (url.protocol !== 'smtp:' && url.protocol !== 'smtps:') {
    throw new ConfigError(`SMTP_URL must use smtp: or smtps:, got "${url.protocol}"`)
  }
  if (!url.hostname) throw new ConfigError('SMTP_URL has no host: use smtp://user:pass@host:587')
  return raw
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
    databaseUrl: databaseUrl(text(env, 'DATABASE_URL')),
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
    smtpUrl: smtpUrl(text(env, 'SMTP_URL')),
    alertEmailTo: text(env, 'ALERT_EMAIL_TO'),
    alertEmailFrom: text(env, 'ALERT_EMAIL_FROM') ?? 'clearing@localhost',
    maintenanceIntervalSeconds: int(env, 'MAINTENANCE_INTERVAL_SECONDS', 3600),
    keyPepper: text(env, 'KEY_PEPPER'),
    // A PEM given in one line with \n escapes (as many secret stores hold it) is the same key.
    signingKey: text(env, 'SIGNING_KEY')?.replaceAll('\\n', '\n') ?? null,
    signingKeysRetiredFile: text(env, 'SIGNING_KEYS_RETIRED'),
    signingKeysRetired: retiredSigningKeys(text(env, 'SIGNING_KEYS_RETIRED')),
    requestTimeoutSeconds: int(env, 'REQUEST_TIMEOUT_SECONDS', 30),
    checkContracts: bool(env, 'CHECK_CONTRACTS', false),
    pilotEnabled: bool(env, 'PILOT_ENABLED', true),
    walletDomain: text(env, 'WALLET_DOMAIN'),
    walletRpcUrl: text(env, 'WALLET_RPC_URL'),
    walletRpcTimeoutSeconds: int(env, 'WALLET_RPC_TIMEOUT_SECONDS', 5),
    tipAddress: text(env, 'TIP_ADDRESS'),
    tipMinConfirmations: int(env, 'TIP_MIN_CONFIRMATIONS', 3),
    servicesFile: text(env, 'SERVICES_FILE'),
    services: catalog(text(env, 'SERVICES_FILE')),
    x402PayTo: text(env, 'X402_PAY_TO'),
    x402FacilitatorUrl: text(env, 'X402_FACILITATOR_URL')?.replace(/\/+$/, '') ?? null,
    x402FacilitatorTimeoutSeconds: int(env, 'X402_FACILITATOR_TIMEOUT_SECONDS', 20),
    metricsToken: text(env, 'METRICS_TOKEN'),
    secretPatternsFile: text(env, 'SECRET_PATTERNS_FILE'),
    secretPatterns: secretPatterns(text(env, 'SECRET_PATTERNS_FILE')),
    secretScanTimeoutMs: int(env, 'SECRET_SCAN_TIMEOUT_MS', 1000),
    powDifficulty: int(env, 'POW_DIFFICULTY', 0),
    powMaxDifficulty: int(
      env,
      'POW_MAX_DIFFICULTY',
      Math.min(MAX_POW_BITS, int(env, 'POW_DIFFICULTY', 0) + POW_ADAPTIVE_BITS),
    ),
    powChallengeSeconds: int(env, 'POW_CHALLENGE_SECONDS', 300),
  }
  return validateConfig(config)
}

export function validateConfig(config: Config): Config {
  const problem = firstSchemaProblem(ConfigSchema, config)
  if (problem) {
    const field = problem.path.replace(/^\//, '') || 'config'
    const envName = ENV.find(([, key]) => key === field)?.[0] ?? field
    throw new ConfigError(`Invalid configuration: ${envName} ${problem.message}`)
  }
  checkOperatorSecrets(config)
  checkWalletSettings(config)
  if (config.powMaxDifficulty < config.powDifficulty) {
    throw new ConfigError('POW_MAX_DIFFICULTY must be at least POW_DIFFICULTY')
  }
  return config
}

function secretPatterns(path: string | null): Config['secretPatterns'] {
  try {
    return readSecretPatterns(path)
  } catch (err) {
    if (err instanceof SecretPatternsError) throw new ConfigError(err.message)
    throw err
  }
}

function retiredSigningKeys(path: string | null): Config['signingKeysRetired'] {
  if (path === null) return []
  let keys: unknown
  try {
    keys = JSON.parse(readFileSync(path, 'utf8'))
  } catch (err) {
    throw new ConfigError(`SIGNING_KEYS_RETIRED ${path} is not readable JSON: ${(err as Error).message}`)
  }
  const problem = firstSchemaProblem(Type.Array(RetiredSigningKey), keys)
  if (problem) throw new ConfigError(`SIGNING_KEYS_RETIRED ${path}: ${problem.path} ${problem.message}`)
  return keys as Config['signingKeysRetired']
}

function catalog(path: string | null): Config['services'] {
  try {
    return readCatalog(path)
  } catch (err) {
    if (err instanceof CatalogError) throw new ConfigError(err.message)
    throw err
  }
}

/** Operator and review keys guard every operator action: at least this long... */
export const MIN_OPERATOR_KEY_LENGTH = 20
/**
 * ...and at least 10^18 guesses by zxcvbn (~60 bits). 20 random base64url characters estimate above
 * 10^19 and 32 random bytes near 10^43; words, dates, sequences, repeats and keyboard walks fall short.
 */
export const MIN_OPERATOR_KEY_GUESSES_LOG10 = 18
const GENERATE_KEY = `node -e "console.log(require('crypto').randomBytes(32).toString('base64url'))"`

/** A short or guessable operator or review key stops the start; the message never echoes it. */
function checkOperatorSecrets(config: Config): void {
  const secrets: Array<[string, string | null]> = [['OPERATOR_KEY', config.operatorKey]]
  if (config.reviewKey !== config.operatorKey) secrets.push(['REVIEW_KEY', config.reviewKey])
  for (const [name, secret] of secrets) {
    if (secret === null) continue
    if (secret.length >= MIN_OPERATOR_KEY_LENGTH && guessesLog10(secret) >= MIN_OPERATOR_KEY_GUESSES_LOG10) continue
    throw new ConfigError(
      `${name} is too easy to guess (it needs ${MIN_OPERATOR_KEY_LENGTH}+ characters and no words, sequences or repeats); generate one with: ${GENERATE_KEY}`,
    )
  }
}

/** Settings that only work together (tips and paid services need the chain to check against). */
function checkWalletSettings(config: Config): void {
  if (config.tipAddress !== null && config.walletRpcUrl === null) {
    throw new ConfigError('TIP_ADDRESS needs WALLET_RPC_URL (a JSON-RPC endpoint of Base) to check tips')
  }
  if (config.services.length === 0) return
  const missing = [
    config.x402PayTo === null ? 'X402_PAY_TO' : undefined,
    config.x402FacilitatorUrl === null ? 'X402_FACILITATOR_URL' : undefined,
    config.walletRpcUrl === null ? 'WALLET_RPC_URL (to reconcile interrupted settlements)' : undefined,
  ].filter(Boolean)
  if (missing.length) throw new ConfigError(`SERVICES_FILE lists services, so set ${missing.join(' and ')}`)
}

/**
 * The receipt signing key of tests and tools, one for every instance of a test (as PostgreSQL
 * deployments share one): an Ed25519 PKCS#8 key from a fixed seed, built so no PEM sits in the source.
 */
export const TEST_SIGNING_KEY = createPrivateKey({
  key: Buffer.concat([Buffer.from('302e020100300506032b657004220420', 'hex'), Buffer.alloc(32, 'clearing-test')]),
  format: 'der',
  type: 'pkcs8',
})
  .export({ type: 'pkcs8', format: 'pem' })
  .toString()

/** A config for tests and tools: defaults plus the given overrides, never read from process.env. */
export function testConfig(overrides: Partial<Config> = {}): Config {
  const config = {
    ...loadConfig({}),
    databaseUrl: 'sqlite::memory:',
    logLevel: 'silent' as const,
    keyPepper: 'test-pepper-0123456789abcdef0123456789',
    signingKey: TEST_SIGNING_KEY,
    checkContracts: true,
    ...overrides,
  }
  // The same fallback as the environment: without its own REVIEW_KEY, reviews take the operator key.
  return validateConfig({ ...config, reviewKey: overrides.reviewKey ?? config.operatorKey })
}

export function baseUrlOf(config: Config, listeningPort?: number): string {
  return config.publicBaseUrl ?? `http://${config.host}:${listeningPort ?? config.port}`
}
