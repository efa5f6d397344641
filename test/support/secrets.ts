import { wordlist } from '@scure/bip39/wordlists/english.js'

/**
 * Planted secrets for the scan tests, built at run time so that no scanner reading this repository
 * finds a literal one. Each is shaped like the real thing, none is live.
 */
const alnum = (n: number, seed = 7) =>
  Array.from({ length: n }, (_, i) => 'A1b2C3d4E5f6G7h8I9j0K1l2M3n4O5p6Q7r8S9t0'[(i * seed) % 40]).join('')

export const PLANTED = {
  github: 'gh' + 'p_' + alnum(36),
  slack: 'xo' + 'xb-1234567890-1234567890123-' + alnum(24, 3),
  anthropic: 'sk-' + 'ant-api03-' + alnum(93, 11) + 'AA',
  connection: 'postgres' + '://app:Zt8kP2mqW@db.internal:5432/app',
  privateKey:
    '-----BEGIN ' +
    'OPENSSH PRIVATE KEY-----\n' +
    'b3BlbnNzaC1rZXktdjEAAAAABG5vbmUAAAAEbm9uZQAAAAAAAAABAAAAMwAAAAtzc2gtZW\n' +
    '-----END OPENSSH PRIVATE KEY-----',
  jwt:
    'ey' +
    'JhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.' +
    'eyJzdWIiOiIxMjM0NTY3ODkwIn0.' +
    'dozjgNryP4J3jVmNHl0w5N_XgL0n3I9PlFUP0THsR8U',
  seedPhrase: wordlist.slice(100, 112).join(' '),
} as const

/** What each planted secret is reported as (the `message` of the 400's detail). */
export const PLANTED_KIND: Record<keyof typeof PLANTED, string> = {
  github: 'github',
  slack: 'slack',
  anthropic: 'anthropic',
  connection: 'connection_string',
  privateKey: 'private_key',
  jwt: 'jwt',
  seedPhrase: 'seed_phrase',
}
