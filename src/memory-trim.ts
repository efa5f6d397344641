/**
 * Gives the memory freed in the C heap back to the system; the server calls it once a second
 * (memory-upkeep.ts).
 *
 * glibc's free() returns memory to the system only from the top of the heap. Under load the heap
 * fills with short-lived blocks (each socket read, each compression, V8's compiler zones) between
 * longer-lived ones (the buffers of answers V8 has not collected yet), so what the short ones free
 * stays in the middle, resident: after the bench's cache-missed pages at 1M contributions the heap
 * held 55-58 MB of which 37 MB were in use. malloc_trim(0) hands every free page back
 * (MADV_DONTNEED); called once a second it found 4 MB to return on average and took 0.3-1.4 ms, and
 * after the focused reads the heap held 26 MB against 41-54 MB without it.
 *
 * malloc_trim is glibc's; where the C library has none (musl, macOS) or koffi has no binary for the
 * platform, the server runs without it.
 */
import { libcFunction } from './libc.ts'

export type Trim = () => void

/** glibc's malloc_trim(0), or undefined where it cannot be called. */
export async function loadMallocTrim(): Promise<Trim | undefined> {
  const mallocTrim = await libcFunction('int malloc_trim(size_t pad)')
  return mallocTrim && (() => void mallocTrim(0))
}
