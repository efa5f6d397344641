import { baseUrlOf, loadConfig } from '../config.ts'
import { operatorHelp, OPERATOR_USAGE } from './operator-help.ts'
import { reasonCodeFor } from './reason-code.ts'

/**
 * `npm run operator -- ACTION [--json '{...}'] [--reason-code CODE]`: posts {action, operator_key,
 * ...fields} to the running server's /api/operator with OPERATOR_KEY from the environment, and prints
 * the JSON answer. Moderation actions ask for their reason code when none is given (reason-code.ts).
 */
export async function operatorCommand(args: string[]): Promise<void> {
  const [action, ...rest] = args
  if (action === 'help' || action === '--help' || action === '-h' || rest.includes('--help')) {
    console.log(operatorHelp())
    return
  }
  if (!action || action.startsWith('-'))
    throw new Error(`${OPERATOR_USAGE}\n(npm run operator -- --help lists the actions)`)
  const jsonAt = rest.indexOf('--json')
  const raw = jsonAt === -1 ? '{}' : rest[jsonAt + 1]
  if (raw === undefined) throw new Error('--json needs a JSON object argument')
  const parsed: unknown = JSON.parse(raw)
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
    throw new Error('--json must be a JSON object')
  }
  const codeAt = rest.indexOf('--reason-code')
  const fields = await reasonCodeFor(
    action,
    parsed as Record<string, unknown>,
    codeAt === -1 ? undefined : rest[codeAt + 1],
  )
  const config = loadConfig()
  if (!config.operatorKey) throw new Error('OPERATOR_KEY is not set in the environment')
  const url = `${baseUrlOf(config)}/api/operator`
  const res = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'user-agent': 'clearing-operator-cli' },
    body: JSON.stringify({ ...fields, action, operator_key: config.operatorKey }),
  }).catch((err: unknown) => {
    throw new Error(`could not reach ${url}: ${whyUnreachable(err)}`)
  })
  const text = await res.text()
  try {
    console.log(JSON.stringify(JSON.parse(text), null, 2))
  } catch {
    console.log(text)
  }
  if (!res.ok) process.exitCode = 1
}

/** fetch says only "fetch failed"; the reason is in its cause (a system error code or a message). */
function whyUnreachable(err: unknown): string {
  const cause = (err as { cause?: { code?: string; message?: string } }).cause
  const known: Record<string, string> = {
    ECONNREFUSED: 'connection refused (is the server running?)',
    ENOTFOUND: 'no such host',
    ECONNRESET: 'connection reset',
    ETIMEDOUT: 'timed out',
  }
  return (cause?.code && known[cause.code]) ?? cause?.message ?? (err instanceof Error ? err.message : String(err))
}
