import fc from 'fast-check'

type Schema = Record<string, unknown>

/** Text that has broken services before: control characters, NUL, lone surrogates, RTL, emoji, long runs. */
export const hostileString: fc.Arbitrary<string> = fc.oneof(
  fc.string(),
  fc.string({ unit: 'grapheme', maxLength: 40 }),
  fc.constantFrom(
    '',
    ' ',
    '\u0000',
    'a\u0000b',
    '\ud800',
    'x\udc00y',
    '\u202eevil\u202c',
    '🧭🧭🧭',
    'e\u0301',
    '\uFEFF',
    "'; drop table contributions; --",
    '<script>alert(1)</script>',
    '../../etc/passwd',
    '%00',
    '${jndi:ldap://x}',
    'x'.repeat(5000),
  ),
)

/** Numbers at and beyond every boundary a store or a JSON parser cares about. */
export const hostileNumber: fc.Arbitrary<number> = fc.oneof(
  fc.integer(),
  fc.double(),
  fc.constantFrom(0, -1, 1, 2 ** 31 - 1, 2 ** 31, 2 ** 32, 2 ** 53 - 1, 2 ** 53, -(2 ** 53), 1e300, 0.5, -0),
)

export const anyJson: fc.Arbitrary<unknown> = fc.oneof(
  hostileString,
  hostileNumber,
  fc.boolean(),
  fc.constant(null),
  fc.array(fc.oneof(hostileNumber, hostileString), { maxLength: 30 }),
  fc.dictionary(hostileString, hostileString, { maxKeys: 4 }),
)

/**
 * Values a field's schema accepts, plus, with some probability, values it does not: the fuzz wants
 * mostly-valid requests (to reach the handlers) with every kind of wrongness mixed in.
 */
export function valueFor(
  schema: Schema | undefined,
  known: Record<string, fc.Arbitrary<unknown>> = {},
  field = '',
): fc.Arbitrary<unknown> {
  const override = known[field]
  const valid = override ?? validFor(schema ?? {}, known)
  return fc.oneof({ weight: 6, arbitrary: valid }, { weight: 1, arbitrary: anyJson })
}

function validFor(schema: Schema, known: Record<string, fc.Arbitrary<unknown>>): fc.Arbitrary<unknown> {
  if ('const' in schema) return fc.constant(schema.const)
  if (Array.isArray(schema.enum)) return fc.constantFrom(...(schema.enum as unknown[]))
  const branches = (schema.anyOf ?? schema.oneOf) as Schema[] | undefined
  if (branches) return fc.oneof(...branches.map((b) => validFor(b, known)))
  switch (schema.type) {
    case 'string': {
      if (schema.format === 'uuid') return fc.uuid({ version: 4 })
      const maxLength = Math.min(Number(schema.maxLength ?? 200), 300)
      return fc.oneof(
        fc.string({ minLength: Number(schema.minLength ?? 0), maxLength }),
        fc.constantFrom(...[0, Number(schema.minLength ?? 0), maxLength].map((n) => 'a'.repeat(n))),
      )
    }
    case 'integer': {
      const min = Number(schema.minimum ?? -(2 ** 31))
      const max = Number(schema.maximum ?? 2 ** 31)
      return fc.oneof(
        fc.integer({ min: Math.max(min, -(2 ** 31)), max: Math.min(max, 2 ** 40) }),
        fc.constantFrom(min, max),
      )
    }
    case 'number':
      return fc.double({ min: Number(schema.minimum ?? -1e6), max: Number(schema.maximum ?? 1e6), noNaN: true })
    case 'boolean':
      return fc.boolean()
    case 'null':
      return fc.constant(null)
    case 'array':
      return fc.array(validFor((schema.items as Schema) ?? {}, known), {
        maxLength: Math.min(Number(schema.maxItems ?? 5), 25),
      })
    case 'object':
      return objectFor(schema, known)
  }
  return anyJson
}

/** An object of the schema's fields: some present, some absent, sometimes an unknown one added. */
export function objectFor(
  schema: Schema,
  known: Record<string, fc.Arbitrary<unknown>> = {},
): fc.Arbitrary<Record<string, unknown>> {
  const properties = (schema.properties as Record<string, Schema> | undefined) ?? {}
  const fields = Object.fromEntries(
    Object.entries(properties).map(([name, field]) => [name, valueFor(field, known, name)]),
  )
  const required = ((schema.required as string[] | undefined) ?? []).filter((name) => name in fields)
  const record = fc.oneof(
    { weight: 5, arbitrary: fc.record(fields, { requiredKeys: required }) },
    { weight: 1, arbitrary: fc.record(fields, { requiredKeys: [] }) },
  )
  return fc
    .tuple(record, fc.option(fc.tuple(hostileString, anyJson), { freq: 6 }))
    .map(([value, extra]) => (extra ? { ...value, [extra[0]]: extra[1] } : value))
}

/** Inputs for an action's input schema, its if/then/else shapes included (drafts). */
export function inputFor(
  schema: Schema,
  known: Record<string, fc.Arbitrary<unknown>>,
): fc.Arbitrary<Record<string, unknown>> {
  const shapes = [schema.then, schema.else].filter((s): s is Schema => typeof s === 'object' && s !== null)
  if (shapes.length === 0) return objectFor(schema, known)
  const top = (schema.properties as Record<string, Schema> | undefined) ?? {}
  return fc.oneof(
    ...shapes.map((shape) => objectFor({ ...shape, properties: { ...top, ...(shape.properties as object) } }, known)),
  )
}
