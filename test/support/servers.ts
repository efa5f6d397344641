import { after, before } from 'node:test'
import { makeFixture, type Fixture } from './examples.ts'
import { connectMcp, type McpSession } from './mcp.ts'
import { useServer, type TestServer, type UseServerOptions } from './harness.ts'
import { startWalletFakes, walletConfig, type WalletFakes } from './wallet.ts'

/**
 * A server with the examples' fixture made on it (support/examples.ts), for the tests of one file or
 * describe block: what the registry matrices start from. Filled in by a `before` hook, like useServer.
 */
export function useFixture(options: UseServerOptions<Record<never, string>> = {}): { t: TestServer; f: Fixture } {
  const { t } = useServer(options)
  const f = {} as Fixture
  before(async () => {
    Object.assign(f, await makeFixture(t))
  })
  return { t, f }
}

/**
 * A server against wallet fakes of its own, not the process's shared pair, so a test may change the
 * chain or the facilitator freely; the fakes close after the server.
 */
export function useWalletServer(): { t: TestServer; fakes: WalletFakes } {
  const fakes = {} as WalletFakes
  let own: WalletFakes | undefined
  before(async () => {
    own = await startWalletFakes()
    Object.assign(fakes, own)
  })
  const { t } = useServer({ config: () => walletConfig(fakes) })
  after(() => own?.close())
  return { t, fakes }
}

/** A server and an MCP session connected to it, for a file or describe block; the session closes first. */
export function useMcpServer(options: UseServerOptions<Record<never, string>> = {}): {
  t: TestServer
  mcp: McpSession
} {
  const mcp = {} as McpSession
  let session: McpSession | undefined
  const { t } = useServer(options)
  before(async () => {
    session = await connectMcp(t.url)
    Object.assign(mcp, session)
  })
  after(() => session?.close())
  return { t, mcp }
}
