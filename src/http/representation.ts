import negotiate from '@fastify/accept-negotiator'
import { hash } from 'node:crypto'
import { promisify } from 'node:util'
import {
  brotliCompress,
  brotliCompressSync,
  constants,
  gzip,
  gzipSync,
  type BrotliOptions,
  type ZlibOptions,
} from 'node:zlib'
import type { FastifyReply, FastifyRequest } from 'fastify'
import { AskedAgain } from '../core/asked-again.ts'
import { isKept, isSharedPart } from '../core/read-cache.ts'

export type Encoding = 'br' | 'gzip'

/** Bodies below this size go out as they are: compression would cost more than it saves. */
export const COMPRESS_THRESHOLD = 1024
const ENCODINGS: Encoding[] = ['br', 'gzip']
/**
 * How hard each body is compressed follows how often its bytes go out. A file (fileBody) is
 * compressed once for the life of the process and sent many times: thorough. A JSON answer is mostly
 * compressed for the one request that asked (a missed page, a thread nobody else reads): fast. At
 * brotli quality 5 a cache-missed history page (31 KB) cost 270 µs of compression against some
 * 200 µs for the rest of its request, and with the Accept-Encoding that fetch, requests and browsers
 * send the page went out at 980/s instead of 5,000; quality 1 takes 59 µs for 3.0 KB where 5 made
 * 2.0 KB, and gzip level 1 56 µs where the default level 6 took 145 µs for 2.4 KB.
 */
type Effort = 'thorough' | 'fast'
/** The fast settings, also those of the pages and errors compressed per response (app.ts). */
export const FAST = { brotliQuality: 1, gzipLevel: 1 } as const
const brotliInPool = promisify(brotliCompress)
const gzipInPool = promisify(gzip)
const compressors: Record<Effort, Record<Encoding, (bytes: Buffer | string) => Promise<Buffer>>> = {
  thorough: {
    br: (bytes) => brotliInPool(bytes, brotliOptions(bytes, 5)),
    gzip: (bytes) => gzipInPool(bytes),
  },
  fast: {
    br: (bytes) => inline(bytes, brotliCompressSync, brotliInPool, brotliOptions(bytes, FAST.brotliQuality)),
    gzip: (bytes) => inline(bytes, gzipSync, gzipInPool, { level: FAST.gzipLevel }),
  },
}

/** A JSON answer compressed as one made per request is (compressedBody): fast, and inline when small. */
export const compressAnswer = (bytes: Buffer | string, encoding: Encoding): Promise<Buffer> =>
  compressors.fast[encoding](bytes)

function brotliOptions(bytes: Buffer | string, quality: number): BrotliOptions {
  return { params: { [constants.BROTLI_PARAM_QUALITY]: quality, [constants.BROTLI_PARAM_SIZE_HINT]: bytes.length } }
}

/**
 * Below this size a fast compression runs on the request's own turn. zlib's asynchronous form (a
 * stream, a hand-off to the thread pool and back) cost some 300 µs of CPU per answer, five times the
 * compression itself: with it the missed history page went out at 2,000/s under Accept-Encoding br.
 * Compressing 256 KB this way takes about as long as serializing it did; larger answers leave the
 * event loop free while the pool compresses them. Both forms make the same bytes.
 */
export const INLINE_BELOW = 256 * 1024

function inline<O extends ZlibOptions | BrotliOptions>(
  bytes: Buffer | string,
  now: (bytes: Buffer, options: O) => Buffer,
  inPool: (bytes: Buffer | string, options: O) => Promise<Buffer>,
  options: O,
): Promise<Buffer> {
  if (bytes.length >= INLINE_BELOW) return inPool(bytes, options)
  try {
    return Promise.resolve(compressNow(now, typeof bytes === 'string' ? encoded(bytes) : bytes, options))
  } catch (err) {
    return Promise.reject(err as Error)
  }
}

/** What a one-shot call answers when asked with `info: true`: the bytes and the stream that made them. */
interface WithEngine {
  buffer: Buffer
  engine: { _outBuffer?: Buffer | null }
}

/**
 * A one-shot compression that lets go of its output chunk when it returns. Each call makes a zlib
 * stream that keeps the chunk it wrote into (`_outBuffer`), and that stream outlives V8's young
 * collections (its native handle refers to it) until the next full one: every answer's chunk, and the
 * pool Buffer it was cut from, stayed allocated until then. 2,000 pages of 25 posts compressed in a
 * loop kept 64 MB of Buffers through two young collections (pages of words: 3-8 MB), 80 KB with the
 * chunk let go. In the server, under the cache-missed pages compressed, they grew V8's external memory
 * by ~20 MB between full collections, which then ran five times a second, and the allocator's heap
 * to 50 MB. Asked for the stream too (`info`, a documented option), the call drops the chunk at once.
 * `_outBuffer` is zlib's internal name: should a Node release rename it, this line keeps nothing and
 * test/unit/compression.test.ts, which counts the Buffers left, fails.
 */
function compressNow<O extends ZlibOptions | BrotliOptions>(
  now: (bytes: Buffer, options: O) => Buffer,
  bytes: Buffer,
  options: O,
): Buffer {
  const made = now(bytes, { ...options, chunkSize: POOLED_CHUNK, info: true }) as unknown as WithEngine
  made.engine._outBuffer = null
  return made.buffer
}

/**
 * zlib's one-shot functions take a string as a fresh Buffer of its UTF-8 and write into a fresh
 * output Buffer of `chunkSize` (16 KB): two allocations outside V8's heap per answer, freed only when
 * V8 next collects, which it does at its own heap's pace, not theirs, so the allocator's heap grows to
 * hold them. 25,000 pages of 22 KB compressed in a loop left it at 100 MB; encoding each into one
 * scratch Buffer (free again when the synchronous call returns) and making the output in chunks that
 * Buffer.allocUnsafe takes from its shared pool (below half of Buffer.poolSize) left it at 21-31 MB,
 * and the loop ran a fifth faster. A page of 25 compresses to ~3 KB: one chunk.
 */
const POOLED_CHUNK = (Buffer.poolSize >>> 1) - 1
let scratch: Buffer | undefined

/** The UTF-8 of a string shorter than INLINE_BELOW, valid until the next call. */
function encoded(text: string): Buffer {
  // A UTF-16 code unit takes at most 3 bytes of UTF-8.
  scratch ??= Buffer.allocUnsafeSlow(3 * INLINE_BELOW)
  return scratch.subarray(0, scratch.write(text, 'utf8'))
}

export interface Body {
  /**
   * The JSON text, or a file's bytes (fileBody). A result the read cache keeps is encoded to UTF-8
   * once, where a string would be encoded again on every send. Any other goes out as the string,
   * encoded straight into the socket write: a Buffer per answer was external memory that V8 collects
   * late, and the allocator's heap kept the ~80 MB it grew to under a stream of distinct reads.
   */
  bytes: Buffer | string
  /** Strong validator of the bytes: different texts never share it (see serialize). */
  hash: string
  /**
   * Where a body that lives as long as the process (an asset file) keeps its compressed forms, so
   * none is ever compressed twice; others share the bounded cache below.
   */
  compressed?: Map<Encoding, Promise<Buffer>>
}

/**
 * Cached read results are shared objects (core/read-cache.ts), so their encoded body and its hash can
 * be shared too: a hit then skips serialization, encoding and hashing. Entries go with their objects.
 */
const bodies = new WeakMap<object, Body>()

/**
 * Members that are shared objects themselves keep their JSON text and its digest: the descriptor
 * read is a fresh object each time, but its 100 KB `protocol` member is one object for the process; a
 * history page missed by the cache embeds the note revisions and recent roots the cache keeps as
 * parts, 18 of its 31 KB. Only those and large members keep it (a cached page's body already holds its
 * members', so keeping every member's too doubled the memory of every cached page).
 */
const memberTexts = new WeakMap<object, Member>()
const MEMBER_TEXT_KEPT = 16 * 1024

interface Member {
  text: string
  /** What the member adds to the body's hash (see serialize). */
  signature: string
}

const digest = (text: string) => hash('sha256', text, 'base64url')

/**
 * The JSON text and its strong validator. An object's validator hashes a signature of each member
 * (its key, and its text or, for an object or array, `#` and the digest of its text) rather than the
 * whole text, so a shared member's digest is computed once and a missed page hashes only what is
 * new in it. Different texts never share a tag (the signatures can be read back apart: a JSON value
 * never starts with `#`), and a result gets the same tag whether its members' texts were kept or not.
 */
function serialize(result: unknown): { text: string; tag: string } {
  if (typeof result !== 'object' || result === null || Array.isArray(result)) {
    const text = JSON.stringify(result)
    return { text, tag: digest(text) }
  }
  // Every piece goes into one join: the body is built flat, in one copy. Wrapping a join's result in
  // braces made a rope of it, which the Content-Length count then copied flat again (31 KB a missed
  // history page, a sixth of what the page allocated).
  const texts: string[] = ['{']
  const signatures: string[] = ['{']
  for (const [key, value] of Object.entries(result)) {
    if (value === undefined) continue
    const member = memberOf(value)
    const name = JSON.stringify(key)
    const comma = texts.length === 1 ? '' : ','
    texts.push(comma, name, ':', member.text)
    signatures.push(comma, name, ':', member.signature)
  }
  texts.push('}')
  signatures.push('}')
  return { text: texts.join(''), tag: digest(signatures.join('')) }
}

function memberOf(value: unknown): Member {
  if (typeof value !== 'object' || value === null) {
    const text = JSON.stringify(value)
    return { text, signature: text }
  }
  let member = memberTexts.get(value)
  if (member === undefined) {
    const text = JSON.stringify(value)
    member = { text, signature: `#${digest(text)}` }
    if (text.length >= MEMBER_TEXT_KEPT || isSharedPart(value)) memberTexts.set(value, member)
  }
  return member
}

function bodyOf(result: unknown): Body {
  const shared = isKept(result) ? (result as object) : undefined
  let body = shared && bodies.get(shared)
  if (body === undefined) {
    const { text, tag } = serialize(result)
    body = { bytes: shared ? Buffer.from(text, 'utf8') : text, hash: tag.slice(0, 32) }
    if (shared) bodies.set(shared, body)
  }
  return body
}

/**
 * Compressed bodies by hash and encoding, so the same text is compressed once however many requests
 * (or fresh result objects, like the descriptor's) carry it. Bounded by count and by bytes, oldest
 * dropped first, and kept only from a text's second compression on (core/asked-again.ts): under a
 * stream of distinct answers (pollers' own cursors, threads nobody else reads) every one went in,
 * pushed one out and was held while 128 more went out, long enough to outlive young collections.
 */
const compressed = new Map<string, Promise<Buffer>>()
export const COMPRESSED_ENTRIES = 128
/**
 * The compressed bytes kept in all: a page of 25 compresses to ~3 KB, but a long thread's answer to
 * hundreds, and 128 of those would be as large as the read cache itself (core/read-cache.ts).
 */
export const COMPRESSED_BYTES = 8 * 1024 * 1024
const compressedOnce = new AskedAgain(COMPRESSED_ENTRIES)
/** The size of each kept body once compressed, and their sum. */
const compressedSizes = new Map<string, number>()
let compressedBytes = 0

/** How many compressed answers are kept now, and their bytes (tests: what is kept, not only what is sent). */
export const compressedKept = (): number => compressed.size
export const compressedBytesKept = (): number => compressedBytes

function compressedBody(body: Body, encoding: Encoding): Promise<Buffer> {
  if (body.compressed) return kept(body.compressed, encoding, () => compressors.thorough[encoding](body.bytes))
  const compress = () => compressAnswer(body.bytes, encoding)
  const key = `${body.hash} ${encoding}`
  const entry = compressed.get(key)
  if (entry !== undefined) {
    // Used again: moved to the end, the last to be dropped.
    compressed.delete(key)
    compressed.set(key, entry)
    return entry
  }
  if (!compressedOnce.again(key)) return compress()
  if (compressed.size >= COMPRESSED_ENTRIES) dropCompressed(compressed.keys().next().value as string)
  const made = kept(compressed, key, compress)
  made.then(
    (bytes) => {
      if (compressed.get(key) !== made) return
      compressedSizes.set(key, bytes.length)
      compressedBytes += bytes.length
      // One body over a quarter of the bound is not kept: it would push out many that pollers share.
      if (bytes.length > COMPRESSED_BYTES / 4) dropCompressed(key)
      for (const oldest of compressed.keys()) {
        if (compressedBytes <= COMPRESSED_BYTES) break
        dropCompressed(oldest)
      }
    },
    () => {},
  )
  return made
}

function dropCompressed(key: string): void {
  compressed.delete(key)
  compressedBytes -= compressedSizes.get(key) ?? 0
  compressedSizes.delete(key)
}

/** What `store` keeps under `key`, made once; a failure is not kept, so the next request tries again. */
function kept<K>(store: Map<K, Promise<Buffer>>, key: K, make: () => Promise<Buffer>): Promise<Buffer> {
  let entry = store.get(key)
  if (entry === undefined) {
    entry = make()
    store.set(key, entry)
    entry.catch(() => store.delete(key))
  }
  return entry
}

/**
 * Sends a JSON result. GET answers carry a strong ETag built from the exact bytes (one per encoding,
 * as the bytes differ) and answer a matching If-None-Match with 304 and no body; large bodies go out
 * br- or gzip-compressed when the client accepts it.
 */
export function sendResult(
  request: FastifyRequest,
  reply: FastifyReply,
  result: unknown,
  contentType: string,
): Promise<FastifyReply> {
  return sendBody(request, reply, bodyOf(result), contentType, 'no-cache')
}

/** A file's bytes as a body that keeps its compressed forms (see Body.compressed). */
export function fileBody(bytes: Buffer): Body {
  return { bytes, hash: hash('sha256', bytes, 'base64url').slice(0, 32), compressed: new Map() }
}

/**
 * Sends a body as sendResult does: the ETag of its bytes per encoding, 304 on a match, compressed
 * when large and accepted. `cacheControl` says how long a GET answer may be reused unasked.
 */
export async function sendBody(
  request: FastifyRequest,
  reply: FastifyReply,
  body: Body,
  contentType: string,
  cacheControl: string,
): Promise<FastifyReply> {
  const encoding =
    body.bytes.length >= COMPRESS_THRESHOLD
      ? negotiate(String(request.headers['accept-encoding'] ?? ''), ENCODINGS)
      : null
  const vary = reply.getHeader('vary')
  reply.header('vary', vary ? `${String(vary)}, accept-encoding` : 'accept-encoding')
  if (request.method === 'GET' || request.method === 'HEAD') {
    reply.header('etag', `"${body.hash}${encoding ? `-${encoding}` : ''}"`)
    reply.header('cache-control', cacheControl)
    if (matches(request.headers['if-none-match'], body.hash)) return reply.code(304).send()
  }
  reply.type(contentType)
  if (!encoding) return reply.send(body.bytes)
  reply.header('content-encoding', encoding)
  return reply.send(await compressedBody(body, encoding))
}

/**
 * If-None-Match uses the weak comparison (RFC 9110, 13.1.2): any listed tag of this text matches,
 * whichever encoding it was sent in.
 */
function matches(header: string | undefined, hash: string): boolean {
  if (!header) return false
  if (header.trim() === '*') return true
  return header.split(',').some((tag) => {
    const opaque = tag.trim().replace(/^W\//, '').replace(/^"|"$/g, '')
    return opaque === hash || opaque === `${hash}-br` || opaque === `${hash}-gzip`
  })
}
