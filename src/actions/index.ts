import type { AnyAction } from '../core/action.ts'
import { checkReturns, readReturns } from './contributions/returns.ts'
import { contribute } from './contributions/contribute.ts'
import { visit } from './contributions/visit.ts'
import { join } from './participants/join.ts'
import { revokeKey, rotateKey } from './participants/keys.ts'
import { pause, resume } from './participants/status.ts'
import { readDiscovery } from './views/discovery.ts'
import { readThread } from './views/thread.ts'
import { readArrival, readHistory } from './views/timeline.ts'

/**
 * The one explicit list of actions. REST dispatch, MCP tools, /openapi.json and the descriptor are
 * all generated from it: adding a capability means adding its actions here.
 */
export const ACTIONS = [
  join,
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
] as unknown as readonly AnyAction[]
