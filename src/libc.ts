/**
 * Functions of the C library the server calls through koffi (a foreign function interface, no
 * compiler needed): where the C library has no such function (musl, macOS) or koffi has no binary
 * for the platform, undefined, and the server runs without what the function does.
 */
export type LibcFunction = (...args: unknown[]) => unknown

/** The process's own C library function of this C declaration, e.g. `int malloc_trim(size_t pad)`. */
export async function libcFunction(declaration: string): Promise<LibcFunction | undefined> {
  try {
    const koffi = (await import('koffi')).default
    // The process's own symbols: libc under whatever name it was loaded.
    return koffi.load(null).func(declaration) as LibcFunction
  } catch {
    return undefined
  }
}
