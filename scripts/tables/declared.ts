import { readdirSync } from 'node:fs'
import { join, relative } from 'node:path'
import ts from 'typescript'
import type { Tables } from './shape.ts'

const ROOT = new URL('../../', import.meta.url).pathname
const SCHEMA = join(ROOT, 'src/db/schema.ts')

/**
 * The tables as TypeScript sees them: the `Schema` interface of src/db/schema.ts merged with every
 * store file's `declare module` block, read with the compiler (no type check of the whole project).
 * `extraSource` adds one more file's text, so a test can declare a drift without writing into src.
 */
export function declaredTables(extraSource?: string): Tables {
  const options = projectOptions()
  const roots = [SCHEMA, ...storeFiles(join(ROOT, 'src/store'))]
  const extraPath = join(ROOT, 'src/store/__drift__.ts')
  const host = ts.createCompilerHost(options)
  if (extraSource !== undefined) {
    roots.push(extraPath)
    const read = host.getSourceFile.bind(host)
    host.getSourceFile = (file, language, ...rest) =>
      file === extraPath ? ts.createSourceFile(file, extraSource, language) : read(file, language, ...rest)
    const exists = host.fileExists.bind(host)
    host.fileExists = (file) => file === extraPath || exists(file)
  }
  const program = ts.createProgram({ rootNames: roots, options, host })
  const checker = program.getTypeChecker()
  const schemaFile = program.getSourceFile(SCHEMA)
  const moduleSymbol = schemaFile && checker.getSymbolAtLocation(schemaFile)
  const schema = moduleSymbol && checker.getExportsOfModule(moduleSymbol).find((s) => s.name === 'Schema')
  if (!schema) throw new Error('src/db/schema.ts exports no Schema interface')

  const tables: Tables = new Map()
  for (const table of checker.getPropertiesOfType(checker.getDeclaredTypeOfSymbol(schema))) {
    const columns = new Map<string, boolean>()
    for (const column of checker.getPropertiesOfType(checker.getTypeOfSymbol(table))) {
      columns.set(column.name, mayBeNull(checker, checker.getTypeOfSymbol(column)))
    }
    const declaration = table.declarations?.[0]
    const source = declaration ? relative(ROOT, declaration.getSourceFile().fileName) : 'unknown file'
    tables.set(table.name, { columns, source })
  }
  return tables
}

/** Kysely's Generated<T> and ColumnType<S, I, U> are read as what a select gives: S. */
function mayBeNull(checker: ts.TypeChecker, type: ts.Type): boolean {
  const selected = type.getProperty('__select__')
  const read = selected ? checker.getTypeOfSymbol(selected) : type
  const members = read.isUnion() ? read.types : [read]
  return members.some((member) => (member.flags & ts.TypeFlags.Null) !== 0)
}

function projectOptions(): ts.CompilerOptions {
  const parsed = ts.getParsedCommandLineOfConfigFile(
    join(ROOT, 'tsconfig.json'),
    {},
    {
      ...ts.sys,
      onUnRecoverableConfigFileDiagnostic: (d) => {
        throw new Error(ts.flattenDiagnosticMessageText(d.messageText, '\n'))
      },
    },
  )
  if (!parsed) throw new Error('tsconfig.json could not be read')
  return { ...parsed.options, noEmit: true }
}

function storeFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true, recursive: true })
    .filter((entry) => entry.isFile() && entry.name.endsWith('.ts'))
    .map((entry) => join(entry.parentPath, entry.name))
}
