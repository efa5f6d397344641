import assert from 'node:assert/strict'
import { mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, test } from 'node:test'
import { ConfigError, loadConfig, testConfig } from '../../src/config.ts'
import { atomicAmount, catalogTerms, parseCatalog } from '../../src/payments/catalog.ts'
import { checkWalletAddresses } from '../../src/wallet/services.ts'

const RPC = { WALLET_RPC_URL: 'https://base.example.org' }
const ADDRESS = '0x2222222222222222222222222222222222222222'
const service = { id: 'review', title: 'Review', description: 'A review.', price_usdc: '0.25', terms: 'Within 7 days.' }

function catalogFile(content: unknown): string {
  const file = join(mkdtempSync(join(tmpdir(), 'clearing-catalog-')), 'services.json')
  writeFileSync(file, typeof content === 'string' ? content : JSON.stringify(content))
  return file
}

function refuses(env: Record<string, string>, mentions: string): void {
  assert.throws(
    () => loadConfig(env),
    (err: unknown) => err instanceof ConfigError && err.message.includes(mentions) && !err.message.includes('\n'),
    `${JSON.stringify(env)} should name ${mentions}`,
  )
}

describe('wallet and payment settings', () => {
  test('off by default: no tips, no services', () => {
    const config = loadConfig({})
    assert.equal(config.walletDomain, null)
    assert.equal(config.walletRpcUrl, null)
    assert.equal(config.walletRpcTimeoutSeconds, 5)
    assert.equal(config.tipAddress, null)
    assert.equal(config.tipMinConfirmations, 3)
    assert.deepEqual(config.services, [])
    assert.equal(config.x402FacilitatorTimeoutSeconds, 20)
  })

  test('invalid values stop the start with a one-line reason', () => {
    refuses({ TIP_ADDRESS: '0x12', ...RPC }, 'TIP_ADDRESS')
    refuses({ TIP_ADDRESS: ADDRESS }, 'WALLET_RPC_URL')
    refuses({ WALLET_RPC_URL: 'ftp://base.example.org' }, 'WALLET_RPC_URL')
    refuses({ TIP_MIN_CONFIRMATIONS: '0' }, 'TIP_MIN_CONFIRMATIONS')
    refuses({ WALLET_RPC_TIMEOUT_SECONDS: '61' }, 'WALLET_RPC_TIMEOUT_SECONDS')
    refuses({ WALLET_DOMAIN: 'https://example.org' }, 'WALLET_DOMAIN')
    refuses({ WALLET_DOMAIN: 'ex<ample>.org' }, 'WALLET_DOMAIN')
    refuses({ X402_PAY_TO: 'me' }, 'X402_PAY_TO')
    refuses({ SERVICES_FILE: '/nonexistent/services.json' }, 'SERVICES_FILE cannot be read')
    refuses({ SERVICES_FILE: catalogFile('{not json') }, 'SERVICES_FILE is not valid JSON')
    refuses({ SERVICES_FILE: catalogFile({}) }, 'JSON array')
    refuses({ SERVICES_FILE: catalogFile([{ ...service, price_usdc: '1e-7' }]) }, 'entry 0: /price_usdc')
    refuses({ SERVICES_FILE: catalogFile([{ ...service, price_usdc: '0.0000001' }]) }, 'entry 0')
    refuses({ SERVICES_FILE: catalogFile([{ ...service, price_usdc: '0' }]) }, 'must be > 0')
    refuses({ SERVICES_FILE: catalogFile([service, service]) }, 'entry 1: duplicate id')
    refuses({ SERVICES_FILE: catalogFile([{ ...service, extra: 1 }]) }, 'entry 0')
    refuses({ SERVICES_FILE: catalogFile([service]) }, 'X402_PAY_TO and X402_FACILITATOR_URL and WALLET_RPC_URL')
  })

  test('a complete catalog activates payments; prices may be JSON numbers', () => {
    const config = loadConfig({
      SERVICES_FILE: catalogFile([{ ...service, price_usdc: 0.5 }]),
      X402_PAY_TO: ADDRESS,
      X402_FACILITATOR_URL: 'https://facilitator.example.org/',
      ...RPC,
    })
    assert.equal(config.services[0]?.price_usdc, '0.5')
    assert.equal(config.x402FacilitatorUrl, 'https://facilitator.example.org')
  })

  test('addresses with a wrong EIP-55 checksum stop the start', async () => {
    const good = '0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913'
    await checkWalletAddresses(testConfig({ tipAddress: good, walletRpcUrl: RPC.WALLET_RPC_URL }))
    await checkWalletAddresses(testConfig({ tipAddress: good.toLowerCase(), walletRpcUrl: RPC.WALLET_RPC_URL }))
    await assert.rejects(
      checkWalletAddresses(testConfig({ tipAddress: good.replace('fCD', 'FCD'), walletRpcUrl: RPC.WALLET_RPC_URL })),
      (err: unknown) => err instanceof ConfigError && err.message.startsWith('TIP_ADDRESS'),
    )
  })
})

describe('the catalog', () => {
  test('atomic USDC amounts are exact', () => {
    assert.equal(atomicAmount('0.25'), '250000')
    assert.equal(atomicAmount('0.000001'), '1')
    assert.equal(atomicAmount('12'), '12000000')
    assert.equal(atomicAmount('123456789.123456'), '123456789123456')
  })

  test('the terms version changes with any service terms, not with prices', () => {
    const base = catalogTerms(parseCatalog(JSON.stringify([service])))
    assert.match(base.version, /^\d{4}-\d{2}-\d{2}\.[0-9a-f]{12}$/)
    assert.ok(base.text.includes('Within 7 days.'))
    assert.equal(catalogTerms([{ ...service, price_usdc: '3' }]).version, base.version)
    assert.notEqual(catalogTerms([{ ...service, terms: 'Within 8 days.' }]).version, base.version)
  })
})
