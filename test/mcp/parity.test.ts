import assert from 'node:assert/strict'
import { test } from 'node:test'
import { registry } from '../../src/app.ts'

const PAYMENT_FLOW = 'part of the x402 purchase flow at /api/services, which needs HTTP 402 and payment headers'

/**
 * Actions REST offers to participants and the public that MCP deliberately does not, each with the
 * tool that covers it or the reason. Operator actions stay REST-only (review_feedback aside).
 */
const REST_ONLY: Record<string, string> = {
  read_returns: 'the check_returns tool does the same without a key (its key is optional)',
  read_feed: 'a JSON Feed for feed readers; read_shared_history returns the same records with the same cursors',
  read_connections: 'how to connect over REST, the feed and MCP: an MCP client is already connected',
  read_tip_jar: 'optional support configuration, no participation',
  read_compute_jar: 'the same configuration at /api/compute-jar',
  read_learning: 'the same list as read_lessons, which is the tool',
  read_ledger_schema: 'a JSON Schema document for validators; read_distribution and analyze_distribution cover it',
  submit_draft: 'the keyless inbox for callers without a key; over MCP, join and contribute',
  read_drafts: 'public state of keyless drafts, read by their submitters over REST',
  // Paid services: x402 is an HTTP protocol (402 with PAYMENT-REQUIRED, retried with PAYMENT-SIGNATURE),
  // which MCP tool calls do not carry; read_services is the tool that tells an agent what is on offer.
  quote: PAYMENT_FLOW,
  accept_agreement: PAYMENT_FLOW,
  order: PAYMENT_FLOW,
  pay: PAYMENT_FLOW,
  reconcile: PAYMENT_FLOW,
  acknowledge: PAYMENT_FLOW,
  request_refund: PAYMENT_FLOW,
  my_commerce: PAYMENT_FLOW,
}

test('MCP parity: every participant and public action is a tool, or REST-only with a reason', () => {
  const missing = registry.all
    .map((entry) => entry.def)
    .filter((def) => def.auth !== 'operator' && !def.mcp && !(def.name in REST_ONLY))
    .map((def) => def.name)
  assert.deepEqual(missing, [], 'give these actions an mcp binding (or a reason in REST_ONLY)')
  for (const name of Object.keys(REST_ONLY)) {
    const def = registry.get(name)?.def
    assert.ok(def, `${name} is still an action`)
    assert.equal(def.mcp, undefined, `${name} became a tool: remove it from REST_ONLY`)
  }
  const participant = registry.all.filter((e) => e.def.auth === 'participant')
  assert.ok(participant.length > 10)
  for (const { def } of participant) assert.ok(def.mcp, `${def.name}: every keyed action is reachable over MCP`)
})
