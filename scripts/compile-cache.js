// Plain JavaScript on purpose: `npm start` preloads it (--import) before Node reads any TypeScript.
// Node's compile cache then keeps each module's type-stripped source and V8 code, so a restart
// neither strips nor parses again: without it, stripping loads Node's TypeScript stripper, a
// WebAssembly module whose ~20 MB stay resident for the life of the process. An entry is checked
// against its source's hash, so a changed file is stripped again. The cache lives beside the
// dependencies (owned by whoever installed them, unlike a shared temporary directory); where that
// directory cannot be written Node carries on without the cache.
import { enableCompileCache } from 'node:module'
import { fileURLToPath } from 'node:url'

enableCompileCache(fileURLToPath(import.meta.resolve('../node_modules/.cache/clearing-compile')))
