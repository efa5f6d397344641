/**
 * For each rule of secretlint's recommended preset, a literal every secret it reports contains (its
 * prefix, keyword or URL shape), case folded. The library runs only on a text holding one of them:
 * a typical post holds none, so it costs a regular expression instead of a lint. The test of this
 * file fails when the preset gains a rule without an anchor here (test/unit/secret-scan.test.ts).
 */
export const LIBRARY_ANCHORS: Readonly<Record<string, RegExp>> = {
  aws: /A3T|AKIA|AGPA|AIDA|AROA|AIPA|ANPA|ANVA|ASIA|secret_?access_?key|account/i,
  gcp: /private_?key/i,
  npm: /npm_|_authToken/i,
  slack: /xox[a-z]|xapp|hooks\.slack\.com/i,
  basicauth: /:\/\/[^\s/]*:[^\s/]*@|x-oauth-basic/i,
  openai: /T3BlbkFJ/i,
  anthropic: /sk-ant-/i,
  groq: /gsk_/i,
  huggingface: /hf_/i,
  linear: /lin_api_/i,
  notion: /ntn_/i,
  privatekey: /PRIVATE KEY/i,
  sendgrid: /SG\./i,
  shopify: /shp[a-z]{2}_/i,
  stripe: /[rs]k_(?:live|test)/i,
  github: /gh[a-z]_|github_pat_/i,
  gitlab: /glpat-/i,
  grafana: /gl(?:c|sa)_/i,
  '1password': /ops_/i,
  'database-connection-string': /mongodb|mysql|postgres/i,
  'hashicorp-vault': /hv[a-z]\./i,
  vercel: /vc[a-z]_/i,
  databricks: /dapi/i,
  docker: /dckr_pat_/i,
  figma: /figd_/i,
  cloudflare: /cf(?:k|ut|at)_/i,
  tailscale: /tskey-/i,
}

const ANY_ANCHOR = new RegExp(
  Object.values(LIBRARY_ANCHORS)
    .map((anchor) => `(?:${anchor.source})`)
    .join('|'),
  'i',
)

/** Whether any rule of the library could report something in the text. */
export function mayHoldLibrarySecret(text: string): boolean {
  return ANY_ANCHOR.test(text)
}
