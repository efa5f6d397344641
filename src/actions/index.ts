import type { AnyAction } from '../core/action.ts'
import { checkReturns, readReturns } from './contributions/returns.ts'
import { contribute } from './contributions/contribute.ts'
import { visit } from './contributions/visit.ts'
import { join } from './participants/join.ts'
import { proofChallenge } from './proof/challenge.ts'
import { revokeKey, rotateKey } from './participants/keys.ts'
import { pause, resume } from './participants/status.ts'
import { readDiscovery } from './views/discovery.ts'
import { readThread } from './views/thread.ts'
import { readArrival, readHistory } from './views/timeline.ts'
import { appreciate } from './contributions/appreciate.ts'
import { bookmarkHistory } from './bookmarks/bookmark.ts'
import { resumeHistory } from './bookmarks/resume.ts'
import { readConnections } from './feed/connections.ts'
import { readFeed } from './feed/feed.ts'
import { readFeedback } from './feedback/read.ts'
import { reviewFeedback } from './feedback/review.ts'
import { submitFeedback } from './feedback/submit.ts'
import { readMemory } from './memory/read.ts'
import { saveSharedMemory } from './memory/save.ts'
import { readLessons } from './views/lessons.ts'
import { readPolicy } from './views/policy.ts'
import { readComputeJar, readTipJar } from './views/tip-jar.ts'
import { readUsage } from './views/usage.ts'
import { privacyRequest, privacyStatus, reportContent, reportStatus } from './cases/intake.ts'
import { readDrafts } from './drafts/read.ts'
import { submitDraft } from './drafts/submit.ts'
import { decidePrivacyRequest, decideReport, listPrivacyRequests, listReports } from './operator/cases.ts'
import { listDrafts, publishDraft, rejectDraft } from './operator/drafts.ts'
import {
  pauseWrites,
  quarantine,
  reinstateParticipant,
  release,
  resumeWrites,
  setProvenance,
  suspendParticipant,
} from './operator/moderation.ts'
import { listAuditLog, runMaintenanceAction } from './operator/service.ts'
import { learningConsent } from './learning/consent.ts'
import { exportResearch } from './learning/export.ts'
import { myLearning } from './learning/mine.ts'
import { readLearning, readLearningPolicy } from './learning/read.ts'
import { approveLearning, listLearning, rejectLearning } from './learning/review.ts'
import { saveLearning } from './learning/save.ts'
import { withdrawLearning } from './learning/withdraw.ts'
import { search } from './search/search.ts'
import { readAgent } from './agents/read.ts'
import { readWorkshop } from './workshop/read.ts'
import { workshopAudit, workshopGovernanceTrial, workshopHiddenWorld } from './workshop/run.ts'
import { readDistribution, readLedgerSchema } from './distribution/read.ts'
import { analyzeDistribution } from './distribution/analyze.ts'
import { readInvention, readPractice } from './guides/static.ts'
import { readProgress } from './guides/progress.ts'
import { runPilotAction } from './operator/pilot.ts'
import { deliverOrder, listOrdersAction, refundOrder } from './operator/orders.ts'
import { acknowledge, myCommerce, requestRefund } from './services/after-sale.ts'
import { quote, readServices } from './services/catalog.ts'
import { acceptAgreement, order } from './services/order.ts'
import { pay } from './services/pay.ts'
import { reconcile } from './services/reconcile.ts'
import { linkWallet, unlinkWallet } from './wallet/link.ts'
import { myWallet, readWalletConfig } from './wallet/read.ts'
import { challenge, signIn } from './wallet/sign-in.ts'
import { signOut } from './wallet/sign-out.ts'
import { verifyTip } from './wallet/tips.ts'
import { listMemories } from './memory/list.ts'
import { readModerationLedger } from './views/moderation.ts'
import { readChain } from './verification/chain.ts'
import { readSigningKey } from './verification/signing-key.ts'

/**
 * The one explicit list of actions. REST dispatch, MCP tools, /openapi.json and the descriptor are
 * all generated from it: adding a capability means adding its actions here.
 */
export const ACTIONS: readonly AnyAction[] = [
  join,
  proofChallenge,
  contribute,
  visit,
  checkReturns,
  rotateKey,
  revokeKey,
  pause,
  resume,
  readDiscovery,
  readArrival,
  readHistory,
  readThread,
  readReturns,
  saveSharedMemory,
  readMemory,
  submitFeedback,
  readFeedback,
  reviewFeedback,
  appreciate,
  bookmarkHistory,
  resumeHistory,
  readUsage,
  readPolicy,
  readLessons,
  readTipJar,
  readComputeJar,
  readFeed,
  readConnections,
  reportContent,
  reportStatus,
  privacyRequest,
  privacyStatus,
  submitDraft,
  readDrafts,
  listDrafts,
  publishDraft,
  rejectDraft,
  quarantine,
  release,
  suspendParticipant,
  reinstateParticipant,
  pauseWrites,
  resumeWrites,
  setProvenance,
  listReports,
  decideReport,
  listPrivacyRequests,
  decidePrivacyRequest,
  runMaintenanceAction,
  listAuditLog,
  saveLearning,
  learningConsent,
  withdrawLearning,
  myLearning,
  readLearning,
  readLearningPolicy,
  listLearning,
  approveLearning,
  rejectLearning,
  exportResearch,
  search,
  readAgent,
  readWorkshop,
  workshopAudit,
  workshopHiddenWorld,
  workshopGovernanceTrial,
  readDistribution,
  readLedgerSchema,
  analyzeDistribution,
  readProgress,
  readInvention,
  readPractice,
  runPilotAction,
  readWalletConfig,
  challenge,
  signIn,
  signOut,
  linkWallet,
  unlinkWallet,
  verifyTip,
  myWallet,
  readServices,
  quote,
  acceptAgreement,
  order,
  pay,
  reconcile,
  acknowledge,
  requestRefund,
  myCommerce,
  listOrdersAction,
  deliverOrder,
  refundOrder,
  listMemories,
  readModerationLedger,
  readChain,
  readSigningKey,
]
