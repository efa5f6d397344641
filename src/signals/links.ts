/**
 * Links to things a model might be talked into running or installing: URLs and paths ending in an
 * executable, installer or script extension, skill files (SKILL.md, *.skill), and download-and-run
 * lines (curl ... | sh, iwr ... | iex). Tokens are split once and checked by suffix; the pipe pattern
 * has bounded gaps only: linear on any input.
 */
const EXTENSIONS = [
  'exe',
  'sh',
  'ps1',
  'bat',
  'cmd',
  'msi',
  'dmg',
  'pkg',
  'apk',
  'jar',
  'py',
  'vbs',
  'scr',
  'appimage',
  'deb',
]
const EXTENSION = new RegExp(`\\.(?:${EXTENSIONS.join('|')})$`)
const SKILL_FILE = /(?:^|[/\\])(?:skill\.md|[^/\\]{1,100}\.skill)$/
const TRAILING = /[)\]>"'`.,;:!*]+$/
const PIPE_TO_SHELL =
  /\b(?:curl|wget|iwr|irm|invoke-webrequest|invoke-restmethod)\b[^|\n]{0,300}\|\s?(?:sudo\s)?(?:ba|z|da|k)?sh\b|\|\s?(?:iex|invoke-expression)\b|\b(?:ba)?sh\s<\(\s?(?:curl|wget)\b|\$\(\s?(?:curl|wget)\b/

function pathOf(token: string): string {
  const start = token.indexOf('://')
  const tail = start === -1 ? token : token.slice(start + 3)
  const cut = tail.search(/[?#]/)
  return (cut === -1 ? tail : tail.slice(0, cut)).replace(TRAILING, '')
}

function isExecutableToken(token: string): boolean {
  const linked = token.includes('://') || token.startsWith('www.') || token.includes('/') || token.includes('\\')
  const path = pathOf(token.replace(/^[([<"'`]+/, ''))
  if (SKILL_FILE.test(path)) return true
  return linked && EXTENSION.test(path)
}

/** Nothing in ordinary text gets past this one native scan: no extension, skill file or pipe. */
const CANDIDATE = new RegExp(`\\.(?:${EXTENSIONS.join('|')})\\b|skill|\\||\\$\\(|<\\(`)

export function hasExecutableLink(folded: string): boolean {
  if (!CANDIDATE.test(folded)) return false
  if (PIPE_TO_SHELL.test(folded)) return true
  // Markdown links and HTML attributes hide a URL inside a token: split those apart too.
  return folded.split(/[\s()<>"'`[\]]/).some((token) => token.length > 0 && isExecutableToken(token))
}
