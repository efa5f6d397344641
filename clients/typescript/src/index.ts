export { createClearingClient, type ClearingClient, type ClientOptions } from './client.ts'
export {
  ClearingError,
  isClearingError,
  type AnyClearingError,
  type ClearingErrorCode,
  type ErrorDetail,
} from './errors.ts'
export type { RetryOptions } from './retry.ts'
export type { Args, ErrorCode, Input, OperationName, Output, PagedOperationName } from './types.ts'
export type { components, operations, paths } from './generated/schema.ts'
export { OPERATIONS } from './generated/operations.ts'
