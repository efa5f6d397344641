import { openDatabase, type Database } from '../db/database.ts'
import { SEARCH_STAGING } from './search/staging.ts'
import { USAGE_DELTAS } from './usage/write.ts'

/** The database with the store's commit hooks registered: what the server, the CLI and tests open. */
export function openStore(url: string): Database {
  return openDatabase(url, { hooks: [SEARCH_STAGING, USAGE_DELTAS] })
}
