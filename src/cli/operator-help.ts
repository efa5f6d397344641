import { ACTIONS } from '../actions/index.ts'

export const OPERATOR_USAGE = "usage: npm run operator -- ACTION [--json '{...}'] [--reason-code CODE]"

interface FieldSchema {
  type?: string
  enum?: readonly string[]
  anyOf?: readonly FieldSchema[]
  description?: string
}

/** A field's type in a word or a list of its values, from its JSON schema. */
function typeOf(schema: FieldSchema): string {
  if (schema.enum) return schema.enum.join('|')
  if (schema.anyOf) return schema.anyOf.map(typeOf).join(' or ')
  return schema.type ?? 'any'
}

/**
 * `npm run operator -- --help`: every operator action with its fields, read from the registry, so a new
 * action or field is listed the day it lands. The action name and operator key are the CLI's own.
 */
export function operatorHelp(): string {
  const lines = [
    OPERATOR_USAGE,
    '',
    'Posts {action, operator_key, ...fields} to <PUBLIC_BASE_URL or http://HOST:PORT>/api/operator with',
    'OPERATOR_KEY from the environment and prints the JSON answer. Fields go in --json; * marks a required one.',
    '',
    'Actions:',
  ]
  for (const def of ACTIONS.filter((action) => action.auth === 'operator')) {
    const input = def.input as { properties?: Record<string, FieldSchema>; required?: readonly string[] }
    lines.push('', `  ${def.name}`, `      ${def.summary}`)
    for (const [name, field] of Object.entries(input.properties ?? {})) {
      if (name === 'action' || name === 'operator_key') continue
      const required = input.required?.includes(name) ? '*' : ''
      lines.push(`      ${name}${required} (${typeOf(field)})${field.description ? `: ${field.description}` : ''}`)
    }
  }
  return lines.join('\n')
}
