import { decodedRuns } from './encoded.ts'
import type { SecretLibrary } from './library.ts'
import { seamReading, visibleText } from './normalize.ts'
import { operatorRules, type SecretPattern } from './operator-patterns.ts'
import { CLEARING_KEY, CLEARING_KEY_KIND, CLEARING_RULES, type SecretRule } from './rules.ts'

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
  const { library } = options
  return {
    async scan(texts) {
      const findings: SecretFinding[] = []
      const exposedKeys = new Map<string, ExposedKey>()
      const libraryCalls: Array<Promise<void>> = []
      const found = (path: string, kind: string) => {
        if (!findings.some((f) => f.path === path && f.kind === kind)) findings.push({ path, kind })
      }
      for (const { path, text } of texts) {
        for (const variant of variantsOf(text)) {
          for (const rule of rules) if (rule.test(variant)) found(path, rule.kind)
          if (findings.some((f) => f.path === path && f.kind === CLEARING_KEY_KIND)) {
            for (const [key] of variant.matchAll(CLEARING_KEY)) exposedKeys.set(key, { path, key })
          }
          // The library is asynchronous and slower: only where it could find something.
          if (library.mayMatch(variant)) {
            libraryCalls.push(library.lint(variant).then((kinds) => kinds.forEach((kind) => found(path, kind))))
          }
        }
      }
      if (libraryCalls.length > 0) {
        try {
          await withinTime(Promise.all(libraryCalls), options.timeoutMs)
        } catch (err) {
          if (err instanceof ScanUnavailable) options.reportFailure?.(err.message)
          throw err
        }
      }
      findings.sort((a, b) => (a.path === b.path ? (a.kind < b.kind ? -1 : 1) : 0))
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
