import { decodedRuns } from './encoded.ts'
import type { SecretLibrary } from './library.ts'
import { seamReading, visibleText } from './normalize.ts'
import { operatorRules, type SecretPattern } from './operator-patterns.ts'
import { CLEARING_KEY, CLEARING_RULES, type SecretRule } from './rules.ts'

/** A secret found in one field: where (a JSON pointer into the input) and what kind, never the text. */
export interface SecretFinding {
  path: string
  kind: string
}

/** A Clearing key found in a field: revoked at once by the caller of the scan, whoever sent it. */
export interface ExposedKey {
  path: string
  key: string
}

export interface ScanOutcome {
  findings: SecretFinding[]
  exposedKeys: ExposedKey[]
}

export interface SecretScanner {
  scan(texts: ReadonlyArray<{ path: string; text: string }>): Promise<ScanOutcome>
}

/** The scan could not finish (the library threw, or ran past its time): the write must not be stored. */
export class ScanUnavailable extends Error {}

export interface ScannerOptions {
  library: SecretLibrary
  patterns: readonly SecretPattern[]
  timeoutMs: number
  /** Told why a scan could not finish (a fixed phrase; never the text or the library's message). */
  reportFailure?: (reason: string) => void
}

/**
 * The one secret scan of every stored text (DESIGN.md, "Trust and safety"): Clearing's own rules and
 * the operators' patterns (synchronous), and the scanner library (asynchronous, bounded in time). Each
 * field is read with hostile Unicode folded away, with its lines joined, and with its readable base64
 * runs decoded, so a secret split, wrapped or encoded is still found.
 */
export function createSecretScanner(options: ScannerOptions): SecretScanner {
  const rules: SecretRule[] = [...CLEARING_RULES, ...operatorRules(options.patterns)]
  return {
    async scan(texts) {
      const kindsByPath = new Map<string, Set<string>>()
      const exposedKeys = new Map<string, ExposedKey>()
      const libraryCalls: Array<Promise<void>> = []
      for (const { path, text } of texts) {
        const kinds = new Set<string>()
        kindsByPath.set(path, kinds)
        for (const variant of variantsOf(text)) {
          for (const rule of rules) if (rule.find(variant).length > 0) kinds.add(rule.kind)
          for (const [key] of variant.matchAll(CLEARING_KEY)) exposedKeys.set(key, { path, key })
          libraryCalls.push(options.library(variant).then((found) => found.forEach((kind) => kinds.add(kind))))
        }
      }
      try {
        await withinTime(Promise.all(libraryCalls), options.timeoutMs)
      } catch (err) {
        if (err instanceof ScanUnavailable) options.reportFailure?.(err.message)
        throw err
      }
      const findings = [...kindsByPath].flatMap(([path, kinds]) => [...kinds].sort().map((kind) => ({ path, kind })))
      return { findings, exposedKeys: [...exposedKeys.values()] }
    },
  }
}

/** The readings of one text that the rules see (duplicates dropped). */
function variantsOf(text: string): string[] {
  const visible = visibleText(text)
  const seams = seamReading(visible)
  const readings = seams ? [visible, seams] : [visible]
  const variants = new Set(readings)
  for (const reading of readings) for (const decoded of decodedRuns(reading)) variants.add(visibleText(decoded))
  return [...variants]
}

/**
 * Fail closed: a library that throws or does not answer in time makes the scan unavailable, and the
 * write is refused rather than stored unscanned (a slow scan must not become a way around it).
 */
async function withinTime(work: Promise<unknown>, timeoutMs: number): Promise<void> {
  let timer: NodeJS.Timeout | undefined
  const timeout = new Promise<never>((_resolve, reject) => {
    timer = setTimeout(() => reject(new ScanUnavailable('the secret scan ran out of time')), timeoutMs)
  })
  try {
    await Promise.race([work, timeout])
  } catch (err) {
    if (err instanceof ScanUnavailable) throw err
    throw new ScanUnavailable('the secret scan failed', { cause: err })
  } finally {
    clearTimeout(timer)
  }
}
