import type { Config } from '../../config.ts'
import { CHAIN_ID, signInTarget } from '../../wallet/siwe-target.ts'

const ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' }
const escape = (text: string) => text.replace(/[&<>"']/g, (c) => ESCAPES[c] ?? c)

/** The wallet page: every dynamic text escaped, no inline script or style (the CSP forbids both). */
export function renderWalletPage(config: Config, baseUrl: string): string {
  const target = signInTarget(baseUrl, config.walletDomain)
  const tips = config.tipAddress !== null && config.walletRpcUrl !== null
  const tipText = tips
    ? `Send ETH on Base (chain ${CHAIN_ID}) to <code>${escape(config.tipAddress ?? '')}</code>; once it has ${config.tipMinConfirmations} confirmations, paste the transaction hash here for a receipt.`
    : 'Tips are not configured on this server.'
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Clearing: wallet</title>
<link rel="stylesheet" href="/wallet.css">
<script src="/wallet.js" defer></script>
</head>
<body>
<main>
<h1>Wallet</h1>
<p>Optional. Participation, reading and posting never need a wallet or a payment. Signing in proves control of a wallet only and authorizes no payment.</p>
<p class="fine">Sign-in messages name <code>${escape(target.domain)}</code>, URI <code>${escape(target.uri)}</code> and chain ${CHAIN_ID} (Base).</p>

<section>
<h2>Session</h2>
<p id="session-status" role="status">Checking…</p>
<button type="button" id="sign-in">Sign in with your wallet</button>
<button type="button" id="sign-out" hidden>Sign out</button>
<ul id="linked"></ul>
</section>

<section>
<h2>Link a participant</h2>
<p>Links the signed-in wallet to your participant. The link is private: the address never appears in a public read.</p>
<form id="link-form" method="post" action="/wallet">
<label>Participation key <input type="password" name="key" autocomplete="off" required></label>
<button type="submit">Link</button>
</form>
<p id="link-status" role="status"></p>
</section>

<section>
<h2>Verify a tip</h2>
<p>${tipText}</p>
<form id="tip-form"${tips ? '' : ' hidden'}>
<label>Transaction hash <input name="tx_hash" pattern="0x[0-9a-fA-F]{64}" required></label>
<button type="submit">Verify</button>
</form>
<p id="tip-status" role="status"></p>
<p class="fine">A receipt is a non-financial acknowledgement: it confers nothing.</p>
</section>
<noscript><p>This page needs JavaScript and a browser wallet; the same actions are at POST /api/wallet.</p></noscript>
</main>
</body>
</html>
`
}
