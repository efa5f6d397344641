import assert from 'node:assert/strict'
import { describe, test } from 'node:test'
import { ConfigError, loadConfig } from '../../src/config.ts'
import { randomBytes } from 'node:crypto'
import { normalizeAddress } from '../../src/http/client-address.ts'

const REVIEW_KEY = 'review-S4O113_fmmQ4CZ-SXrab5WNY'

describe('config', () => {
  test('defaults follow the runtime contract', () => {
    const config = loadConfig({})
    assert.equal(config.port, 8080)
    assert.equal(config.host, '127.0.0.1')
    assert.equal(config.databaseUrl, 'sqlite:./data/clearing.sqlite')
    assert.equal(config.operatorKey, null)
    assert.equal(config.reviewKey, null)
    assert.equal(config.contributionIntervalSeconds, 30)
    assert.equal(config.registrationRatePerMinute, 20)
    assert.equal(config.registrationCapacity, 10000)
    assert.equal(config.trustProxy, false)
    assert.equal(config.logLevel, 'info')
    assert.deepEqual([config.powDifficulty, config.powMaxDifficulty, config.powChallengeSeconds], [0, 8, 300])
    const on = loadConfig({ POW_DIFFICULTY: '28' })
    assert.deepEqual([on.powDifficulty, on.powMaxDifficulty], [28, 32], 'the adaptive range stops at 32 bits')
  })

  test('REVIEW_KEY defaults to OPERATOR_KEY', () => {
    const key = 'operator-yNJMVE3AtP5VSCUpK1Y4Vau5'
    assert.equal(loadConfig({ OPERATOR_KEY: key }).reviewKey, key)
    assert.equal(loadConfig({ OPERATOR_KEY: key, REVIEW_KEY: REVIEW_KEY }).reviewKey, REVIEW_KEY)
  })

  test('invalid settings stop the start with a one-line reason naming the variable', () => {
    for (const [env, name] of [
      [{ PORT: 'eighty' }, 'PORT'],
      [{ PORT: '70000' }, 'PORT'],
      [{ LOG_LEVEL: 'loud' }, 'LOG_LEVEL'],
      [{ OPERATOR_KEY: 'short' }, 'OPERATOR_KEY'],
      [{ PUBLIC_BASE_URL: 'ftp://x' }, 'PUBLIC_BASE_URL'],
      [{ REGISTRATION_RATE_PER_MINUTE: '0' }, 'REGISTRATION_RATE_PER_MINUTE'],
      [{ DATABASE_URL: 'mysql://db/clearing' }, 'DATABASE_URL'],
      [{ DATABASE_URL: './data/clearing.sqlite' }, 'DATABASE_URL'],
      [{ SMTP_URL: 'not a url' }, 'SMTP_URL'],
      [{ SMTP_URL: 'http://mail.example.org' }, 'SMTP_URL'],
      [{ SMTP_URL: 'smtp://' }, 'SMTP_URL'],
      [{ KEY_PEPPER: 'too-short' }, 'KEY_PEPPER'],
      [{ REQUEST_TIMEOUT_SECONDS: '0' }, 'REQUEST_TIMEOUT_SECONDS'],
      [{ CHECK_CONTRACTS: 'yes' }, 'CHECK_CONTRACTS'],
      [{ POW_DIFFICULTY: '33' }, 'POW_DIFFICULTY'],
      [{ POW_DIFFICULTY: '12', POW_MAX_DIFFICULTY: '10' }, 'POW_MAX_DIFFICULTY'],
      [{ POW_CHALLENGE_SECONDS: '5' }, 'POW_CHALLENGE_SECONDS'],
    ] as const) {
      assert.throws(
        () => loadConfig(env),
        (err: unknown) => err instanceof ConfigError && err.message.includes(name) && !err.message.includes('\n'),
        JSON.stringify(env),
      )
    }
  })

  test('a short or guessable OPERATOR_KEY or REVIEW_KEY stops the start: one line, how to make one, never the key', () => {
    const weak = [
      'password12345678',
      'Zq8vN2kL7xWp4RtY9bH', // random, but under 20 characters
      'correcthorsebatterystaple',
      'qwertyuiopasdfghjklzxcvbnm',
      'aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa',
      'abcABC123abcABC123abcABC123abcABC123',
      'CompanyName2026!CompanyName2026!',
    ]
    for (const secret of weak) {
      for (const [env, name] of [
        [{ OPERATOR_KEY: secret }, 'OPERATOR_KEY'],
        [{ OPERATOR_KEY: REVIEW_KEY + 'x', REVIEW_KEY: secret }, 'REVIEW_KEY'],
      ] as const) {
        assert.throws(
          () => loadConfig(env),
          (err: unknown) =>
            err instanceof ConfigError &&
            err.message.startsWith(`${name} `) &&
            err.message.includes("randomBytes(32).toString('base64url')") &&
            !err.message.includes(secret) &&
            !err.message.includes('\n'),
          `${name}=${secret}`,
        )
      }
    }
    for (const secret of [randomBytes(32).toString('base64url'), randomBytes(15).toString('base64url')]) {
      assert.equal(loadConfig({ OPERATOR_KEY: secret }).operatorKey, secret)
      assert.equal(loadConfig({ OPERATOR_KEY: REVIEW_KEY, REVIEW_KEY: secret }).reviewKey, secret)
    }
  })

  test('an SMTP URL with credentials is accepted, and a rejected one never echoes them', () => {
    assert.equal(
      loadConfig({ SMTP_URL: 'smtps://user:pa55@mail.example.org:465' }).smtpUrl,
      'smtps://user:pa55@mail.example.org:465',
    )
    assert.throws(
      () => loadConfig({ SMTP_URL: 'ftp://user:pa55@mail.example.org' }),
      (err: unknown) => err instanceof ConfigError && !err.message.includes('pa55'),
    )
  })
})

describe('client address normalisation for abuse buckets', () => {
  test('IPv4-mapped IPv6 becomes IPv4; IPv6 is cut to its /64', () => {
    assert.equal(normalizeAddress('::ffff:10.1.2.3'), '10.1.2.3')
    assert.equal(normalizeAddress('203.0.113.9'), '203.0.113.9')
    assert.equal(normalizeAddress('2001:db8:abcd:12:1:2:3:4'), '2001:0db8:abcd:0012::/64')
    assert.equal(normalizeAddress('2001:db8:abcd:12::99'), '2001:0db8:abcd:0012::/64')
    assert.equal(normalizeAddress('::1'), '0000:0000:0000:0000::/64')
    assert.equal(normalizeAddress(undefined), undefined)
  })
})
