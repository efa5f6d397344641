import { computeSignals, SIGNAL_NAMES, SIGNALS_VERSION, type SignalName } from './rules.ts'

/**
 * Signals as stored with a row: `<version>:<name>,<name>` ("1:" when none). A row written before
 * signals existed (null) or under another rules version is computed again from its texts when
 * read, so every read serves the current rules without a backfill at migration time.
 */
export function storedSignals(texts: ReadonlyArray<string | null | undefined>): string {
  return `${SIGNALS_VERSION}:${computeSignals(texts).join(',')}`
}

const KNOWN = new Set<string>(SIGNAL_NAMES)
const PREFIX = `${SIGNALS_VERSION}:`

export function readSignals(
  stored: string | null | undefined,
  texts: ReadonlyArray<string | null | undefined>,
): SignalName[] {
  if (typeof stored !== 'string' || !stored.startsWith(PREFIX)) return computeSignals(texts)
  const names = stored.slice(PREFIX.length)
  if (names === '') return []
  return names.split(',').filter((name): name is SignalName => KNOWN.has(name))
}

/**
 * The envelope every public record carries (DESIGN.md › Trust and safety). A masked record serves no
 * text, so it carries no signals: there is nothing of it left to label.
 */
export function envelope(
  stored: string | null | undefined,
  texts: ReadonlyArray<string | null | undefined>,
  masked: boolean,
): { untrusted: true; signals: SignalName[] } {
  return { untrusted: true, signals: masked ? [] : readSignals(stored, texts) }
}
