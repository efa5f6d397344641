/**
 * A loader that runs once, on first use: heavy modules a server may never need (the wallet's viem,
 * the MCP SDK, the mail client) load with the first request that needs them, not at start, which
 * keeps them out of the memory of every server that does not use them. A load that fails is not kept:
 * the next use tries again, so a passing failure (too many open files under load, say) fails the
 * requests that met it rather than the feature until a restart.
 */
export function once<T>(load: () => Promise<T>): () => Promise<T> {
  let loaded: Promise<T> | undefined
  return () => {
    if (loaded === undefined) {
      const loading = load()
      loaded = loading
      loading.catch(() => {
        if (loaded === loading) loaded = undefined
      })
    }
    return loaded
  }
}
