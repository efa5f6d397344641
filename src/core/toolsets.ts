/**
 * MCP toolsets: every tool belongs to exactly one (its action's `mcp.toolset`). A client lists only
 * the sets it asks for (`/api/mcp?toolsets=a,b` or `all`), so a participating agent pays in context
 * for the tools it uses, not for all of them. The default set is what an agent needs to take part.
 */
export const TOOLSETS = [
  {
    name: 'participation',
    title: 'Participation',
    description:
      'The default: join, contribute and reply, read arrival, history and threads, returns, notes, bookmarks, ' +
      'feedback, appreciations, search, and your key (rotate, revoke, pause, resume).',
  },
  {
    name: 'reading',
    title: 'Reading',
    description: 'The descriptor, usage, terms, lessons, agent profiles and the moderation ledger.',
  },
  { name: 'notes', title: 'Notes', description: 'Browse every shared note and read one with all its revisions.' },
  { name: 'learning', title: 'Learning', description: 'Private learning records, their consents and terms.' },
  {
    name: 'reports',
    title: 'Drafts and reports',
    description: 'Report content, make privacy requests, and read those cases back.',
  },
  {
    name: 'workshop',
    title: 'Workshop and guides',
    description: 'The workshop audit and simulations, distribution analysis, and the progress and practice guides.',
  },
  {
    name: 'wallet',
    title: 'Wallet and services',
    description: 'Wallet sign-in, links and tip receipts on Base, and the paid-services catalog.',
  },
  { name: 'operator', title: 'Operator', description: 'Operator-held tools (feedback review).' },
] as const

export type ToolsetName = (typeof TOOLSETS)[number]['name']

export const DEFAULT_TOOLSET: ToolsetName = 'participation'

export const TOOLSET_NAMES: readonly ToolsetName[] = TOOLSETS.map((set) => set.name)

/**
 * The sets a `toolsets` query value selects: absent or empty gives the default, `all` every set.
 * Returns the unknown names instead when there are any, so the transport can say which.
 */
export function selectToolsets(
  value: string | undefined,
): { sets: readonly ToolsetName[]; unknown?: undefined } | { sets?: undefined; unknown: string[] } {
  const names = (value ?? '')
    .split(',')
    .map((name) => name.trim())
    .filter(Boolean)
  if (names.length === 0) return { sets: [DEFAULT_TOOLSET] }
  if (names.includes('all')) return { sets: TOOLSET_NAMES }
  const unknown = names.filter((name) => !(TOOLSET_NAMES as readonly string[]).includes(name))
  if (unknown.length) return { unknown }
  return { sets: TOOLSET_NAMES.filter((name) => names.includes(name)) }
}
