import { isObject, pointer, typeName, type Findings, type Json, type JsonObject } from './findings.ts'

/**
 * Field checks shared by the belief and audit checks. Each reports at the field's own pointer and
 * returns the value when it has the expected type, so later checks run only on well-typed values.
 */
export class FieldReader {
  readonly findings: Findings
  constructor(findings: Findings) {
    this.findings = findings
  }

  /**
   * A required string; blank text is noted (a template not yet filled in), never an error by itself.
   * `blank: null` leaves the note to the caller, which has something more specific to say.
   */
  text(
    object: JsonObject,
    field: string,
    base: Array<string | number>,
    blank: string | null = 'is empty',
  ): string | undefined {
    const value = this.present(object, field, base)
    if (value === undefined) return undefined
    const path = pointer(...base, field)
    if (typeof value !== 'string') return this.wrongType(path, 'a string', value)
    if (value.trim() === '' && blank !== null) this.findings.info(path, `"${field}" ${blank}.`)
    return value
  }

  /** A required array of strings; each item of another type is an error at its own pointer. */
  strings(object: JsonObject, field: string, base: Array<string | number>): string[] | undefined {
    const value = this.present(object, field, base)
    if (value === undefined) return undefined
    const path = pointer(...base, field)
    if (!Array.isArray(value)) return this.wrongType(path, 'an array of strings', value)
    const out: string[] = []
    value.forEach((item, i) => {
      if (typeof item === 'string') out.push(item)
      else this.wrongType(pointer(...base, field, i), 'a string', item)
    })
    return out
  }

  /** A required array of objects; items of another type are errors, the objects are returned with their index. */
  objects(object: JsonObject, field: string, base: Array<string | number>): Array<[number, JsonObject]> | undefined {
    const value = this.present(object, field, base)
    if (value === undefined) return undefined
    if (!Array.isArray(value)) return this.wrongType(pointer(...base, field), 'an array of objects', value)
    const out: Array<[number, JsonObject]> = []
    value.forEach((item, i) => {
      if (isObject(item)) out.push([i, item])
      else this.wrongType(pointer(...base, field, i), 'an object', item)
    })
    return out
  }

  object(object: JsonObject, field: string, base: Array<string | number>): JsonObject | undefined {
    const value = this.present(object, field, base)
    if (value === undefined) return undefined
    return isObject(value) ? value : this.wrongType(pointer(...base, field), 'an object', value)
  }

  /** The record format version: the integer 1. */
  version(object: JsonObject, base: Array<string | number>): void {
    const value = this.present(object, 'version', base)
    if (value === undefined) return
    if (value !== 1)
      this.findings.error(pointer(...base, 'version'), `Unknown version ${JSON.stringify(value)}: use 1.`)
  }

  /** A non-blank value must be one of the known values. */
  known(value: string | undefined, known: readonly string[], path: string, what: string): void {
    if (value === undefined || value.trim() === '' || known.includes(value)) return
    this.findings.error(path, `Unknown ${what} "${clip(value)}"; known: ${known.join(', ')}.`)
  }

  /** Every string of a list must be known. */
  allKnown(values: string[] | undefined, known: readonly string[], base: Array<string | number>, what: string): void {
    values?.forEach((value, i) => {
      if (!known.includes(value))
        this.findings.error(pointer(...base, i), `Unknown ${what} "${clip(value)}"; known: ${known.join(', ')}.`)
    })
  }

  /** Fields the record format does not define: reported, then ignored. */
  unknownFields(object: JsonObject, allowed: readonly string[], base: Array<string | number>): void {
    for (const field of Object.keys(object)) {
      if (!allowed.includes(field))
        this.findings.warning(pointer(...base, field), `Unknown field "${clip(field)}" is ignored.`)
    }
  }

  private present(object: JsonObject, field: string, base: Array<string | number>): Json | undefined {
    if (Object.hasOwn(object, field)) return object[field]
    this.findings.error(pointer(...base, field), `Required field "${field}" is missing.`)
    return undefined
  }

  private wrongType(path: string, expected: string, value: unknown): undefined {
    this.findings.error(path, `Must be ${expected}, not ${typeName(value)}.`)
    return undefined
  }
}

/** Record text echoed in a message is cut short, so findings stay small whatever the record holds. */
export function clip(text: string, max = 60): string {
  return text.length <= max ? text : `${text.slice(0, max)}…`
}

export const filled = (value: string | string[] | undefined): boolean =>
  Array.isArray(value) ? value.some((v) => v.trim() !== '') : value !== undefined && value.trim() !== ''
