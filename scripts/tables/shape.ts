/** A table as both sides describe it: its columns and whether each may hold null. */
export interface TableShape {
  /** Column name -> nullable. */
  columns: Map<string, boolean>
  /** Where the shape came from, for the report (a declaring file, or the dialect). */
  source: string
}

export type Tables = Map<string, TableShape>

/**
 * Every disagreement between the declared table types and a migrated schema: a table or column on one
 * side only, or a column nullable on one side and not on the other. Empty when they agree.
 */
export function tableDrift(declared: Tables, migrated: Tables, dialect: string): string[] {
  const problems: string[] = []
  for (const [name, table] of declared) {
    const actual = migrated.get(name)
    if (!actual) {
      problems.push(`table ${name} is declared (${table.source}) but no migration creates it on ${dialect}`)
      continue
    }
    for (const [column, nullable] of table.columns) {
      const actualNullable = actual.columns.get(column)
      if (actualNullable === undefined) {
        problems.push(`column ${name}.${column} is declared (${table.source}) but missing on ${dialect}`)
      } else if (actualNullable !== nullable) {
        const say = (n: boolean) => (n ? 'nullable' : 'not null')
        problems.push(
          `column ${name}.${column} is ${say(nullable)} as declared (${table.source}) but ${say(actualNullable)} on ${dialect}`,
        )
      }
    }
    for (const column of actual.columns.keys()) {
      if (!table.columns.has(column)) {
        problems.push(`column ${name}.${column} exists on ${dialect} but is not declared (${table.source})`)
      }
    }
  }
  for (const name of migrated.keys()) {
    if (!declared.has(name)) {
      problems.push(
        `table ${name} exists on ${dialect} but no store declares its type (src/store/<resource>/tables.ts)`,
      )
    }
  }
  return problems
}
