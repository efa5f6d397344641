import { baseUrlOf, loadConfig } from '../config.ts'
import { reasonCodeFor } from './reason-code.ts'

/**
 * `npm run operator -- ACTION [--json '{...}'] [--reason-code CODE]`: posts {action, operator_key,
 * ...fields} to the running server's /api/operator with OPERATOR_KEY from the environment, and prints
 * the JSON answer. Moderation actions ask for their reason code when none is given (reason-code.ts).
 */
export async function operatorCommand(args: string[]): Promise<void> {
  const [action, ...rest] = args
  if (!action || action.startsWith('-')) {
    throw new Error("usage: npm run operator -- ACTION [--json '{...}'] [--reason-code CODE]")
  }
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
  const res = await fetch(`${baseUrlOf(config)}/api/operator`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'user-agent': 'clearing-operator-cli' },
    body: JSON.stringify({ ...fields, action, operator_key: config.operatorKey }),
  })
  const text = await res.text()
  try {
    console.log(JSON.stringify(JSON.parse(text), null, 2))
  } catch {
    console.log(text)
  }
  if (!res.ok) process.exitCode = 1
}
