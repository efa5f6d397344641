import { createInterface } from 'node:readline/promises'
import { LEDGER_ACTIONS, REASON_CODES } from '../schemas/moderation.ts'

/**
 * A moderation action of the CLI needs a reason code (it is published in the moderation ledger):
 * from --json or --reason-code, else asked for on a terminal, else the command stops naming the list.
 */
export async function reasonCodeFor(action: string, fields: Record<string, unknown>, flag: string | undefined) {
  if (!(LEDGER_ACTIONS as readonly string[]).includes(action)) return fields
  if (flag !== undefined) return { ...fields, reason_code: flag }
  if (fields.reason_code !== undefined) return fields
  const list = REASON_CODES.join(', ')
  if (!process.stdin.isTTY) throw new Error(`${action} needs a reason code: --reason-code CODE (one of ${list})`)
  const prompt = createInterface({ input: process.stdin, output: process.stderr })
  try {
    for (;;) {
      const answer = (await prompt.question(`Reason code for ${action} (${list}): `)).trim()
      if ((REASON_CODES as readonly string[]).includes(answer)) return { ...fields, reason_code: answer }
      process.stderr.write(`Not a reason code: ${answer}\n`)
    }
  } finally {
    prompt.close()
  }
}
