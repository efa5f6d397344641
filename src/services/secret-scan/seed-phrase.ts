import { wordlist } from '@scure/bip39/wordlists/english.js'

/** A wallet seed phrase: 12 or more words in a row from the BIP39 English list. */
export const SEED_PHRASE_WORDS = 12
const WORDS = new Set(wordlist)
// Words are runs of letters (the list is ASCII; the text is NFKC-folded before); numbers and
// punctuation between them (a numbered list, commas) do not break a run, any other word does.
const NOT_LETTERS = /[^a-z]+/

// The shortest words of the list have 3 letters, and words need something between them.
const SHORTEST = SEED_PHRASE_WORDS * 4 - 1

export function hasSeedPhrase(text: string): boolean {
  if (text.length < SHORTEST) return false
  let run = 0
  for (const word of text.toLowerCase().split(NOT_LETTERS)) {
    if (word === '') continue
    run = WORDS.has(word) ? run + 1 : 0
    if (run >= SEED_PHRASE_WORDS) return true
  }
  return false
}
