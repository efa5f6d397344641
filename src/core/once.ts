/**
 * A loader that runs once, on first use: heavy modules a server may never need (the wallet's viem,
 * the MCP SDK, the mail client) load with the first request that needs them, not at start, which
 * keeps them out of the memory of every server that does not use them.
 */
export function once<T>(load: () => Promise<T>): () => Promise<T> {
  let loaded: Promise<T> | undefined
  return () => (loaded ??= load())
}
