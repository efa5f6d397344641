/**
 * The environment and node flags `npm start` runs the server with, read from package.json so the
 * benchmark and the lifecycle test start the server exactly as users do and cannot drift from it.
 */
import { readFileSync } from 'node:fs'

const start: string = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')).scripts.start
const command = /((?:[A-Z_]+=\S+ )*)node ((?:--\S+ )*)src\/main\.ts serve/.exec(start)
if (!command) throw new Error(`npm start no longer runs "[NAME=value] node [--flags] src/main.ts serve": ${start}`)
const [, assignments = '', flags = ''] = command

export const START_FLAGS: readonly string[] = parseFlags(flags)

/** Variables `npm start` sets for the server process (glibc's malloc reads them as the process starts). */
export const START_ENV: Readonly<Record<string, string>> = parseAssignments(assignments)

/** `--flag --flag=value` as node's arguments. */
export function parseFlags(text: string): string[] {
  return text.split(' ').filter(Boolean)
}

/** `NAME=value NAME=value` as an environment. */
export function parseAssignments(text: string): Record<string, string> {
  return Object.fromEntries(
    parseFlags(text).map((word) => {
      const equals = word.indexOf('=')
      return [word.slice(0, equals), word.slice(equals + 1)]
    }),
  )
}
