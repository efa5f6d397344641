import { createRequire } from 'node:module'
import type * as Zxcvbn from '@zxcvbn-ts/core'
import type * as ZxcvbnCommon from '@zxcvbn-ts/language-common'

/**
 * How many guesses zxcvbn (with its common passwords, diceware words and keyboard layouts) expects an
 * attacker to need, as a power of ten. A secret drawn from a CSPRNG scores about its length; typed or
 * patterned ones (words, sequences, repeats, keyboard walks, l33t) far less.
 */
export function guessesLog10(secret: string): number {
  return estimator().check(secret).guessesLog10
}

// Loaded on first use, synchronously (config validation is synchronous): a server with neither an
// operator key nor a key rotation never holds the dictionaries.
let loaded: Zxcvbn.ZxcvbnFactory | undefined

function estimator(): Zxcvbn.ZxcvbnFactory {
  if (loaded) return loaded
  const require = createRequire(import.meta.url)
  const core = require('@zxcvbn-ts/core') as typeof Zxcvbn
  const common = require('@zxcvbn-ts/language-common') as typeof ZxcvbnCommon
  loaded = new core.ZxcvbnFactory({
    dictionary: common.dictionary,
    graphs: common.adjacencyGraphs,
    // Past a few l33t substitutions a secret is long and random anyway; the default (100) is far slower.
    l33tMaxSubstitutions: 3,
  })
  return loaded
}
