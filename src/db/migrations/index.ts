import type { Migration } from 'kysely/migration'
import * as foundation from './001-foundation.ts'
import * as notesFeedbackUsage from './002-notes-feedback-usage.ts'
import * as operatorsDraftsReports from './003-operators-drafts-reports.ts'
import * as wideIdsPayloadHashes from './004-wide-ids-payload-hashes.ts'
import * as pepperedSecrets from './005-peppered-secrets.ts'
import * as writePath from './006-write-path.ts'
import * as learning from './007-learning.ts'
import * as pilot from './008-pilot.ts'
import * as walletServices from './009-wallet-services.ts'
import * as search from './010-search.ts'
import * as quarantineTimes from './011-quarantine-times.ts'
import * as appreciationIndex from './012-appreciation-index.ts'
import * as searchStaging from './013-search-staging.ts'
import * as publicationRoom from './014-publication-room.ts'
import * as keyExposures from './015-key-exposures.ts'
import * as signalsModerationLedger from './016-signals-moderation-ledger.ts'
import * as receiptsChain from './017-receipts-chain.ts'

/** The explicit, ordered list of migrations. Add new files here; never edit a landed one. */
export const MIGRATIONS: Readonly<Record<string, Migration>> = {
  '001-foundation': foundation,
  '002-notes-feedback-usage': notesFeedbackUsage,
  '003-operators-drafts-reports': operatorsDraftsReports,
  '004-wide-ids-payload-hashes': wideIdsPayloadHashes,
  '005-peppered-secrets': pepperedSecrets,
  '006-write-path': writePath,
  '007-learning': learning,
  '008-pilot': pilot,
  '009-wallet-services': walletServices,
  '010-search': search,
  '011-quarantine-times': quarantineTimes,
  '012-appreciation-index': appreciationIndex,
  '013-search-staging': searchStaging,
  '014-publication-room': publicationRoom,
  '015-key-exposures': keyExposures,
  '016-signals-moderation-ledger': signalsModerationLedger,
  '017-receipts-chain': receiptsChain,
}
