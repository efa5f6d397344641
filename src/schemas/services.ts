import { Type } from 'typebox'
import { ORDER_STATES } from '../store/orders/write.ts'
import { Cursor, Limit, StringEnum, Timestamp, Uuid } from './common.ts'
import { operatorInput, Paging, Reason } from './operator.ts'
import { PagedList } from './paging.ts'
import { SessionToken, WalletAddress } from './wallet.ts'

const ServiceId = Type.String({ minLength: 1, maxLength: 64, description: 'A service id from GET /api/services.' })
const OrderId = Type.String({ format: 'uuid', description: 'The order_id from order.' })
const Nullable = <T extends ReturnType<typeof Type.String>>(schema: T) => Type.Union([schema, Type.Null()])

export const ServiceView = Type.Object({
  id: Type.String(),
  title: Type.String(),
  description: Type.String(),
  price_usdc: Type.String({ description: 'Price in USDC (decimal).' }),
  amount: Type.String({ description: 'Price in atomic USDC units (6 decimals), as in the payment requirement.' }),
  terms: Type.String(),
})

const Payments = Type.Object({
  active: Type.Boolean({
    description: 'Payments are on: the operators configured a catalog, a payee and a facilitator.',
  }),
  x402_version: Type.Literal(2),
  scheme: Type.Literal('exact'),
  network: Type.Literal('eip155:8453'),
  asset: Type.String({ description: 'USDC on Base.' }),
  pay_to: Nullable(WalletAddress),
})

const Terms = Type.Object({
  version: Type.String({ description: 'Date-stamped version; accept_agreement takes it.' }),
  text: Type.String(),
})

export const ServicesDocument = Type.Object({
  payments: Payments,
  terms: Terms,
  services: Type.Array(ServiceView),
  notes: Type.Array(Type.String()),
})

export const QuoteInput = Type.Object(
  { action: Type.Literal('quote'), service_id: ServiceId },
  { additionalProperties: false },
)

export const QuoteResult = Type.Object({
  service: ServiceView,
  payments: Payments,
  terms_version: Type.String(),
  agreement_required: Type.Literal(true),
})

export const AcceptInput = Type.Object(
  {
    action: Type.Literal('accept_agreement'),
    session_token: SessionToken,
    terms_version: Type.String({ minLength: 1, maxLength: 100 }),
  },
  { additionalProperties: false },
)

export const AgreementResult = Type.Object({ terms_version: Type.String(), accepted_at: Timestamp })

export const OrderInput = Type.Object(
  { action: Type.Literal('order'), session_token: SessionToken, service_id: ServiceId },
  { additionalProperties: false },
)

const Requirement = Type.Object({
  scheme: Type.String(),
  network: Type.String(),
  amount: Type.String(),
  asset: Type.String(),
  payTo: Type.String(),
  maxTimeoutSeconds: Type.Integer(),
  extra: Type.Record(Type.String(), Type.Unknown()),
})

/** The x402 v2 PaymentRequired (also sent base64-encoded in the PAYMENT-REQUIRED header), with the order. */
export const PaymentRequiredBody = Type.Object({
  order_id: Uuid,
  state: Type.Literal('awaiting_payment'),
  x402Version: Type.Literal(2),
  error: Type.Optional(Type.String()),
  resource: Type.Object({
    url: Type.String(),
    description: Type.Optional(Type.String()),
    mimeType: Type.Optional(Type.String()),
  }),
  accepts: Type.Array(Requirement, { minItems: 1 }),
  extensions: Type.Optional(Type.Record(Type.String(), Type.Unknown())),
  payment_error: Type.Optional(
    Type.Object(
      { reason: Type.String(), message: Type.String() },
      { description: 'Why the payment sent was refused.' },
    ),
  ),
})

const OrderField = { session_token: SessionToken, order_id: OrderId }

export const PayInput = Type.Object(
  {
    action: Type.Literal('pay'),
    ...OrderField,
    payment_signature: Type.Optional(
      Type.String({
        minLength: 1,
        maxLength: 16000,
        description: 'The x402 PAYMENT-SIGNATURE header value. REST clients send the header; this field is the same.',
      }),
    ),
  },
  { additionalProperties: false },
)

export const OrderView = Type.Object({
  order_id: Uuid,
  seq: Type.Integer({ minimum: 1 }),
  service_id: Type.String(),
  title: Type.String(),
  price_usdc: Type.String(),
  amount: Type.String(),
  state: StringEnum(ORDER_STATES),
  settlement_pending: Type.Boolean({
    description: 'A settlement was sent and its outcome is not known yet: reconcile.',
  }),
  transaction: Nullable(Type.String()),
  created_at: Timestamp,
  paid_at: Nullable(Timestamp),
  delivered_at: Nullable(Timestamp),
  delivery: Nullable(Type.String()),
  acknowledged_at: Nullable(Timestamp),
  refund_requested_at: Nullable(Timestamp),
  refund_reason: Nullable(Type.String()),
  refunded_at: Nullable(Timestamp),
})

export const PaidBody = Type.Object({
  order_id: Uuid,
  state: StringEnum(ORDER_STATES),
  transaction: Nullable(Type.String()),
  network: Type.Literal('eip155:8453'),
  payer: Nullable(Type.String()),
  paid_at: Timestamp,
})

/**
 * One object (MCP needs an object at the root): with HTTP 402 it is PaymentRequiredBody, with 200
 * PaidBody; order_id and state are always there.
 */
export const PayResult = Type.Object(
  {
    order_id: Uuid,
    state: StringEnum(ORDER_STATES),
    ...Type.Partial(Type.Omit(PaymentRequiredBody, ['order_id', 'state'])).properties,
    ...Type.Partial(Type.Omit(PaidBody, ['order_id', 'state'])).properties,
  },
  { description: 'HTTP 402: the x402 PaymentRequired of the order (as in order); 200: the settled payment.' },
)

export const OrderActionInput = <const A extends string>(action: A) =>
  Type.Object({ action: Type.Literal(action), ...OrderField }, { additionalProperties: false })

export const RefundRequestInput = Type.Object(
  { action: Type.Literal('request_refund'), ...OrderField, reason: Reason },
  { additionalProperties: false },
)

export const RECONCILE_OUTCOMES = ['nothing_pending', 'confirmed_on_chain', 'settled_now', 'released'] as const

export const ReconcileResult = Type.Object({
  outcome: StringEnum(RECONCILE_OUTCOMES, {
    description:
      'nothing_pending: no settlement was in doubt; confirmed_on_chain: the earlier settlement went through; settled_now: settled on this call; released: the payment never went through and the order awaits payment again.',
  }),
  order: OrderView,
})

export const MyCommerceInput = Type.Object(
  {
    action: Type.Literal('my_commerce'),
    session_token: SessionToken,
    after: Type.Optional(Cursor),
    limit: Type.Optional(Limit),
  },
  { additionalProperties: false },
)

export const MyCommerceResult = Type.Object({
  address: WalletAddress,
  agreement: Type.Union([Type.Object({ terms_version: Type.String(), accepted_at: Timestamp }), Type.Null()], {
    description: 'Your acceptance of the current terms, if any.',
  }),
  orders: Type.Array(OrderView),
  next_cursor: Type.Integer({ minimum: 0 }),
  has_more: Type.Boolean(),
})

export const OperatorOrder = Type.Object({
  ...OrderView.properties,
  address: WalletAddress,
  payer: Nullable(Type.String()),
  settle_attempts: Type.Integer({ minimum: 0 }),
  last_error: Nullable(Type.String()),
  refund_note: Nullable(Type.String()),
})

export const ListOrdersInput = operatorInput('list_orders', {
  state: Type.Optional(StringEnum(ORDER_STATES)),
  ...Paging,
})
export const OrderList = PagedList('orders', OperatorOrder)

export const DeliverInput = operatorInput('deliver_order', {
  order_id: OrderId,
  delivery: Type.String({ minLength: 1, maxLength: 8000, description: 'What the buyer receives (text or a link).' }),
})

export const RefundOrderInput = operatorInput('refund_order', {
  order_id: OrderId,
  note: Type.Optional(Reason),
})
