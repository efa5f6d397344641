import { baseUrlOf, loadConfig } from '../config.ts'

/**
 * `npm run operator -- ACTION [--json '{...}']`: posts {action, operator_key, ...fields} to the
 * running server's /api/operator with OPERATOR_KEY from the environment, and prints the JSON answer.
 */
export async function operatorCommand(args: string[]): Promise<void> {
  const [action, ...rest] = args
  if (!action || action.startsWith('-')) throw new Error("usage: npm run operator -- ACTION [--json '{...}']")
  const jsonAt = rest.indexOf('--json')
  const raw = jsonAt === -1 ? '{}' : rest[jsonAt + 1]
  if (raw === undefined) throw new Error('--json needs a JSON object argument')
  const fields: unknown = JSON.parse(raw)
  if (typeof fields !== 'object' || fields === null || Array.isArray(fields)) {
    throw new Error('--json must be a JSON object')
  }
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
