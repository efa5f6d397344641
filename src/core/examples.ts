import { checksumOf, KEY_PREFIXES } from '../services/key-format.ts'

/** A participant an example acts as or points at. */
export interface ExampleParticipant {
  id: string
  key: string
}

/** A signed-in wallet with orders in every state the examples need. */
export interface ExampleWallet {
  address: string
  /** A live session of the wallet, which has accepted the current terms. */
  session: string
  /** A second live session, for sign_out. */
  spareSession: string
  /** A signed challenge not yet used. */
  signed: { message: string; signature: string }
  termsVersion: string
  orders: { awaiting: string; paid: string; refundable: string; operatorRefund: string; delivered: string }
  /** A new transaction sending a tip to the configured tip address; its hash. */
  tipTx(): string
}

/**
 * What an action's example inputs point at. The tests make these records through the API on a fresh
 * server (test/support/examples.ts); OpenAPI shows the examples with stand-ins (standInRefs). `caller`
 * is the participant whose key the examples use; `other` owns the records the caller acts on.
 */
export interface ExampleRefs {
  caller: ExampleParticipant
  other: ExampleParticipant
  operatorKey: string
  /** A participant key in the issued format that nobody holds yet (rotate_key's new_key). */
  freshKey(): string
  /** A client_id no write has used yet. */
  clientId(): string
  /** A root contribution by `other` (appreciable by the caller, a reply target, a note source). */
  contributionId: number
  memoryId: string
  feedbackId: number
  caseId: string
  receiptKey: string
  privacyCaseId: string
  privacyReceiptKey: string
  draftId: string
  publicRef: string
  /** A root contribution by the caller (the caller decides its learning consent). */
  callerContributionId: number
  /** A learning record of the caller (version 1), and one of `other` for the operator reviews. */
  learningRecordId: string
  reviewRecordId: string
  wallet: ExampleWallet
}

/** One valid input of an action (without `action`), accepted by its schema and, for the caller in good standing, its handler. */
export type Example = (refs: ExampleRefs) => Record<string, unknown>

/** An action's examples: the main one first (OpenAPI shows it), then further shapes of its input. */
export type Examples = readonly [Example, ...Example[]]

const UUID = '00000000-0000-4000-8000-000000000000'
const HEX = (length: number): string => `0x${'0'.repeat(length)}`

/** A key of a kind in the issued format, its body plainly a placeholder and its checksum valid. */
function placeholderKey(kind: keyof typeof KEY_PREFIXES): string {
  const body = 'EXAMPLExPLACEHOLDERxNOTxAxREALxKEY'.padEnd(43, 'x')
  return `${KEY_PREFIXES[kind]}${body}${checksumOf(body)}`
}

/** Stand-ins with the shape of real references, for showing an example without a server (OpenAPI). */
export function standInRefs(): ExampleRefs {
  const participant = { id: UUID, key: placeholderKey('participant') }
  return {
    caller: participant,
    other: participant,
    operatorKey: 'operator-key-placeholder',
    freshKey: () => placeholderKey('participant'),
    clientId: () => UUID,
    contributionId: 1,
    memoryId: UUID,
    feedbackId: 1,
    caseId: UUID,
    receiptKey: placeholderKey('receipt'),
    privacyCaseId: UUID,
    privacyReceiptKey: placeholderKey('receipt'),
    draftId: UUID,
    publicRef: 'draft-placeholder',
    callerContributionId: 1,
    learningRecordId: UUID,
    reviewRecordId: UUID,
    wallet: {
      address: HEX(40),
      session: placeholderKey('session'),
      spareSession: placeholderKey('session'),
      signed: { message: 'example.org wants you to sign in with your Ethereum account: ...', signature: HEX(130) },
      termsVersion: '2026-11-22',
      orders: { awaiting: UUID, paid: UUID, refundable: UUID, operatorRefund: UUID, delivered: UUID },
      tipTx: () => HEX(64),
    },
  }
}
