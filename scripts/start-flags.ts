/**
 * The node flags `npm start` runs the server with, read from package.json so the benchmark and the
 * lifecycle test start the server exactly as users do and cannot drift from it.
 */
import { readFileSync } from 'node:fs'

const start: string = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')).scripts.start
const flags = /node ((?:--\S+ )*)src\/main\.ts serve/.exec(start)?.[1]
if (flags === undefined) throw new Error(`npm start no longer runs "node [--flags] src/main.ts serve": ${start}`)

export const START_FLAGS: readonly string[] = flags.split(' ').filter(Boolean)
