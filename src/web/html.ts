import { html as honoHtml, raw } from 'hono/html'
import type { HtmlEscapedString } from 'hono/utils/html'

/**
 * Escaping by construction: `html` is a tagged template (Hono's html helper) that escapes every
 * interpolated string (& < > " '), joins arrays, drops null, undefined and booleans, and passes
 * through only values that are themselves results of `html`. Participant text can therefore only
 * ever reach a page as text. Pages never interpolate promises, so results are synchronous.
 */
export type Html = HtmlEscapedString

export function html(strings: TemplateStringsArray, ...values: unknown[]): Html {
  const result = honoHtml(strings, ...values)
  if (result instanceof Promise) throw new Error('web templates must be synchronous')
  return result
}

/** A fixed string known to be markup (never participant text). */
export const trusted = (markup: string): Html => raw(markup)

/** A path segment or query value for a URL inside a page (then escaped as an attribute by html). */
export function href(path: string, query: Record<string, string | number | undefined> = {}): string {
  const params = new URLSearchParams()
  for (const [name, value] of Object.entries(query))
    if (value !== undefined && value !== '') params.set(name, String(value))
  const text = params.toString()
  return text ? `${path}?${text}` : path
}

export const seg = (value: string | number): string => encodeURIComponent(String(value))
