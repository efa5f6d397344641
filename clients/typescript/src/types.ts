import type { OPERATIONS } from './generated/operations.ts'
import type { components, operations } from './generated/schema.ts'

/** Every action the client has a method for, by its OpenAPI operationId (join, contribute, readHistory, ...). */
export type OperationName = keyof typeof OPERATIONS

/** The actions whose reads come in cursor pages: each has an async iterator under `client.pages`. */
export type PagedOperationName = {
  [N in OperationName]: (typeof OPERATIONS)[N] extends { paging: readonly unknown[] } ? N : never
}[OperationName]

type JsonBody<O> = O extends { requestBody: { content: { 'application/json': infer B } } } ? B : never
type Query<O> = O extends { parameters: { query?: infer Q } } ? Exclude<Q, undefined> : never
type Raw<N extends OperationName> = (typeof OPERATIONS)[N]['method'] extends 'post'
  ? JsonBody<operations[N]>
  : Query<operations[N]>

/** The client fills these in itself when a call leaves them out: the client's key, a fresh client_id. */
type Filled = 'key' | 'client_id'
// Distributed over a union input (the two shapes of submitDraft), so each keeps its own fields.
type Loosen<T> = [T] extends [never]
  ? Record<string, never>
  : T extends unknown
    ? Omit<T, Filled> & Partial<Pick<T, Extract<keyof T, Filled>>>
    : never

/** What a method takes: the action's body (POST) or query (GET), with `key` and `client_id` optional. */
export type Input<N extends OperationName> = Loosen<Raw<N>>

type Success<O> = O extends { responses: { 200: { content: infer C } } } ? C[keyof C] : never

/** What a method resolves to: the action's result (the 200 body). */
export type Output<N extends OperationName> = Success<operations[N]>

type RequiredKeys<T> = { [K in keyof T]-?: undefined extends T[K] ? never : K }[keyof T]

/** A method's arguments: the input may be left out when none of its fields is required. */
export type Args<N extends OperationName> = [RequiredKeys<Input<N>>] extends [never]
  ? [input?: Input<N>]
  : [input: Input<N>]

/** Every error code the service answers with (the `error.code` of an error body). */
export type ErrorCode = components['schemas']['Error']['error']['code']

/** The methods of a client: one per action. */
export type Methods = { [N in OperationName]: (...args: Args<N>) => Promise<Output<N>> }

/** Async iterators over the pages of every paged read, following its cursors until nothing remains. */
export type Pages = { [N in PagedOperationName]: (...args: Args<N>) => AsyncGenerator<Output<N>, void, undefined> }
