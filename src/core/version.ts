import { readFileSync } from 'node:fs'

/** The package's own version (package.json): MCP serverInfo, server.json and the agent card say it. */
export const PACKAGE_VERSION: string = (
  JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string }
).version
