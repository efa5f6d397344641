import { createPrivateKey, generateKeyPairSync, type KeyObject } from 'node:crypto'
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { ConfigError, type Config } from './config.ts'
import { isPostgresUrl, sqlitePath } from './db/database.ts'

export const SIGNING_KEY_FILE = 'signing-key.pem'

/**
 * The Ed25519 key that signs receipts and the chain head (services/receipts.ts): SIGNING_KEY when
 * set. Without it, a SQLite deployment keeps a generated one in `signing-key.pem` beside the
 * database file (mode 0600), as it keeps its pepper; PostgreSQL instances must all sign with one key,
 * so there SIGNING_KEY is required. The private key never leaves this process: only its public JWK
 * is served.
 */
export function resolveSigningKey(config: Config): KeyObject {
  if (config.signingKey !== null) return ed25519(config.signingKey, 'SIGNING_KEY')
  if (isPostgresUrl(config.databaseUrl)) {
    throw new ConfigError(
      'SIGNING_KEY is required with PostgreSQL (the same Ed25519 PKCS#8 PEM on every instance; ' +
        'generate one with: openssl genpkey -algorithm ed25519)',
    )
  }
  const path = sqlitePath(config.databaseUrl)
  if (path === ':memory:') return generateKeyPairSync('ed25519').privateKey
  const file = join(dirname(path), SIGNING_KEY_FILE)
  mkdirSync(dirname(path), { recursive: true })
  try {
    // 'wx' fails when the file exists: two processes starting at once both end up reading one key.
    const pem = generateKeyPairSync('ed25519').privateKey.export({ type: 'pkcs8', format: 'pem' })
    writeFileSync(file, pem, { flag: 'wx', mode: 0o600 })
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err
  }
  return ed25519(readFileSync(file, 'utf8'), file)
}

function ed25519(pem: string, source: string): KeyObject {
  let key: KeyObject
  try {
    key = createPrivateKey(pem)
  } catch {
    // The parser's message could quote the text: only say where the bad key came from.
    throw new ConfigError(`${source} is not a PKCS#8 PEM private key`)
  }
  if (key.asymmetricKeyType !== 'ed25519') throw new ConfigError(`${source} is not an Ed25519 key`)
  return key
}
