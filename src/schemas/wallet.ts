import { Type } from 'typebox'
import { Cursor, Key, Limit, Timestamp, Uuid } from './common.ts'

export const SessionToken = Type.String({
  minLength: 1,
  maxLength: 200,
  description:
    'The wallet session from sign_in (write-only, valid one hour). Body only; the /wallet page sends its cookie instead.',
})

export const WalletAddress = Type.String({
  pattern: '^0x[0-9a-fA-F]{40}$',
  description: 'An EVM address (0x + 40 hex digits).',
})

export const TxHash = Type.String({ pattern: '^0x[0-9a-fA-F]{64}$', description: 'A transaction hash on Base.' })

const Signature = Type.String({
  pattern: '^0x[0-9a-fA-F]{130}$',
  description: 'The personal_sign (ERC-191) signature of the message by the wallet (an externally owned account).',
})

const ChainId = Type.Literal(8453, { description: 'Base mainnet.' })

export const ChallengeInput = Type.Object(
  { action: Type.Literal('challenge'), address: WalletAddress },
  { additionalProperties: false },
)

export const ChallengeResult = Type.Object({
  message: Type.String({ description: 'The EIP-4361 message to sign, unchanged; its nonce is single-use.' }),
  expires_at: Timestamp,
  chain_id: ChainId,
})

export const SignInInput = Type.Object(
  {
    action: Type.Literal('sign_in'),
    message: Type.String({ minLength: 1, maxLength: 2000, description: 'The message from challenge.' }),
    signature: Signature,
    cookie: Type.Optional(
      Type.Boolean({ description: 'Also set the __Host-clearing_wallet cookie (for the /wallet page).' }),
    ),
  },
  { additionalProperties: false },
)

export const SessionResult = Type.Object({
  session_token: Type.String({ description: 'Private: shown once, stored only hashed. Send it in the body.' }),
  address: WalletAddress,
  expires_at: Timestamp,
})

export const SessionInput = <const A extends string>(action: A) =>
  Type.Object({ action: Type.Literal(action), session_token: SessionToken }, { additionalProperties: false })

export const SignOutResult = Type.Object({ signed_out: Type.Literal(true) })

export const LinkInput = Type.Object(
  { action: Type.Literal('link_wallet'), key: Key, session_token: SessionToken },
  { additionalProperties: false },
)

export const LinkResult = Type.Object({ participant_id: Uuid, linked: Type.Literal(true), linked_at: Timestamp })

export const UnlinkInput = Type.Object(
  { action: Type.Literal('unlink_wallet'), key: Key },
  { additionalProperties: false },
)

export const UnlinkResult = Type.Object({
  participant_id: Uuid,
  linked: Type.Literal(false),
  was_linked: Type.Boolean(),
})

export const VerifyTipInput = Type.Object(
  {
    action: Type.Literal('verify_tip'),
    tx_hash: TxHash,
    session_token: Type.Optional(SessionToken),
  },
  { additionalProperties: false },
)

export const TipReceipt = Type.Object({
  receipt_id: Uuid,
  tx_hash: TxHash,
  value_wei: Type.String({ pattern: '^[1-9][0-9]*$', description: 'The amount sent, in wei, as a decimal string.' }),
  confirmations: Type.Integer({ minimum: 1, description: 'Confirmations when verified.' }),
  verified_at: Timestamp,
})

export const VerifyTipResult = Type.Object({
  receipt: TipReceipt,
  attributed: Type.Boolean({ description: 'Kept with your signed-in wallet (it sent the tip); private either way.' }),
  note: Type.String(),
})

export const MyWalletInput = Type.Object(
  {
    action: Type.Literal('my_wallet'),
    session_token: SessionToken,
    after: Type.Optional(Cursor),
    limit: Type.Optional(Limit),
  },
  { additionalProperties: false },
)

export const MyWalletResult = Type.Object({
  address: WalletAddress,
  expires_at: Timestamp,
  linked_participants: Type.Array(Type.Object({ participant_id: Uuid, name: Type.String(), linked_at: Timestamp })),
  receipts: Type.Array(Type.Object({ seq: Type.Integer({ minimum: 1 }), ...TipReceipt.properties })),
  next_cursor: Type.Integer({ minimum: 0, description: 'The last receipt seq returned: pass it as after.' }),
  has_more: Type.Boolean(),
})

export const WalletConfig = Type.Object({
  chain_id: ChainId,
  sign_in: Type.Object({
    domain: Type.String(),
    uri: Type.String(),
    challenge_seconds: Type.Literal(300),
    session_seconds: Type.Literal(3600),
  }),
  tips: Type.Object({
    configured: Type.Boolean(),
    address: Type.Union([WalletAddress, Type.Null()], { description: "The operators' tip address, when configured." }),
    min_confirmations: Type.Integer({ minimum: 1 }),
  }),
  status: Type.Union([Type.Literal('sign_in_only'), Type.Literal('sign_in_and_tips')]),
  notes: Type.Array(Type.String()),
})
