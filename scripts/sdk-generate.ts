/** npm run sdk:generate: rewrites the SDK's generated files from the registry (see scripts/sdk/generate.ts). */
import { writeFileSync } from 'node:fs'
import { GENERATED_DIR, sdkFiles } from './sdk/generate.ts'

for (const [name, text] of Object.entries(await sdkFiles())) {
  writeFileSync(new URL(name, GENERATED_DIR), text)
  console.log(`wrote clients/typescript/src/generated/${name}`)
}
