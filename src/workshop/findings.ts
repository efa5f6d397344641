/** Audit findings: each names the place in the record it is about as an RFC 6901 JSON Pointer. */
export type Severity = 'error' | 'warning' | 'info'

export interface Finding {
  path: string
  severity: Severity
  message: string
}

/** Findings listed per audit; the rest are counted, so a huge record yields a bounded answer. */
export const MAX_FINDINGS = 200

/** A JSON Pointer from path segments: `~` and `/` inside a key are escaped as `~0` and `~1`. */
export function pointer(...segments: Array<string | number>): string {
  return segments.map((s) => '/' + String(s).replaceAll('~', '~0').replaceAll('/', '~1')).join('')
}

export class Findings {
  readonly listed: Finding[] = []
  private errors = 0
  private omitted = 0

  error(path: string, message: string): void {
    this.errors++
    this.add({ path, severity: 'error', message })
  }

  warning(path: string, message: string): void {
    this.add({ path, severity: 'warning', message })
  }

  info(path: string, message: string): void {
    this.add({ path, severity: 'info', message })
  }

  get valid(): boolean {
    return this.errors === 0
  }

  /** The listed findings, with a last note when some were left out. */
  result(): Finding[] {
    if (this.omitted === 0) return this.listed
    const message = `${this.omitted} further finding(s) not listed (at most ${MAX_FINDINGS} are).`
    return [...this.listed, { path: '', severity: 'info', message }]
  }

  private add(finding: Finding): void {
    if (this.listed.length < MAX_FINDINGS) this.listed.push(finding)
    else this.omitted++
  }
}

export type Json = null | boolean | number | string | Json[] | { [key: string]: Json }
export type JsonObject = { [key: string]: Json }

export const isObject = (value: unknown): value is JsonObject =>
  typeof value === 'object' && value !== null && !Array.isArray(value)

export function typeName(value: unknown): string {
  if (value === null) return 'null'
  if (Array.isArray(value)) return 'an array'
  if (typeof value === 'object') return 'an object'
  return `a ${typeof value}`
}
