/**
 * The floors of the code (docs/architecture.md), checked by `npm run check`: transports -> core ->
 * actions -> services -> store -> db, each importing only below itself, with no import cycles.
 */
const ABOVE_STORE = '^src/(core|actions|services|http|mcp|web|pilot|cli|app|server|main)'
// Matched after the node_modules of a linked checkout too (a git worktree sharing one install).
const DRIVERS = '(^|/)node_modules/(kysely|pg|better-sqlite3)/|^(kysely|pg|better-sqlite3)(/|$)'

module.exports = {
  forbidden: [
    {
      name: 'no-circular',
      comment: 'An import cycle makes a floor depend on itself: split the shared part out.',
      severity: 'error',
      from: {},
      to: { circular: true },
    },
    {
      name: 'db-is-the-bottom',
      comment: 'src/db is the engine: it imports nothing of Clearing above it.',
      severity: 'error',
      from: { path: '^src/db/' },
      to: { path: '^src/', pathNot: '^src/db/' },
    },
    {
      name: 'migrations-are-frozen',
      comment: 'A landed migration never changes when runtime code does: only kysely and its own folder.',
      severity: 'error',
      from: { path: '^src/db/migrations/' },
      to: { pathNot: ['^src/db/migrations/', '(^|/)node_modules/kysely/', '^kysely/'], dependencyTypesNot: ['core'] },
    },
    {
      name: 'sql-stays-in-store-and-db',
      comment: 'Only src/store and src/db talk SQL: nothing else imports a query builder or a driver at run time.',
      severity: 'error',
      from: { path: '^src/', pathNot: '^src/(store|db)/' },
      to: { path: DRIVERS, dependencyTypesNot: ['type-only'] },
    },
    {
      name: 'store-stays-below',
      comment: 'The store reads and writes rows; it never reaches up into the pipeline, actions or transports.',
      severity: 'error',
      from: { path: '^src/store/' },
      to: { path: ABOVE_STORE },
    },
    {
      name: 'sdk-stands-alone',
      comment:
        'The published client (clients/typescript) carries no server or test code: only itself and its dependencies.',
      severity: 'error',
      from: { path: '^clients/typescript/' },
      to: { path: '^(src|test|scripts|bench)/' },
    },
    {
      name: 'action-areas-apart',
      comment: 'An action area never imports another area: logic two areas share is a domain service (src/services).',
      severity: 'error',
      from: { path: '^src/actions/([^/]+)/' },
      to: { path: '^src/actions/', pathNot: '^src/actions/$1/' },
    },
    {
      name: 'actions-stay-below-core',
      comment:
        'An action declares itself with core/action.ts (or core/operator-action.ts): it imports nothing else of the ' +
        'pipeline, and no transport. What it needs besides is a service below it.',
      severity: 'error',
      from: { path: '^src/actions/' },
      to: {
        path: '^src/(core|http|mcp|web|cli|app|server|main)',
        pathNot: '^src/core/(action|operator-action)\\.ts$',
      },
    },
    {
      name: 'services-stay-below-actions',
      comment:
        'A domain service (and the pure domain libraries beside it: wallet, payments, search, signals, workshop, ' +
        'distribution, guides) serves actions, the pilot and the draft publisher: it imports none of them, nor ' +
        'the pipeline or a transport.',
      severity: 'error',
      from: { path: '^src/(services|wallet|payments|search|signals|workshop|distribution|guides)/' },
      to: { path: '^src/(actions|core|http|mcp|web|cli|app|server|main)' },
    },
    {
      name: 'only-transports-and-core-list-actions',
      comment:
        'The list of actions (src/actions/index.ts) is read through the registry: only the app, the transports and ' +
        'the operator CLI import it.',
      severity: 'error',
      from: { path: '^src/', pathNot: '^src/(app|server|main|http|mcp|web|cli|core)' },
      to: { path: '^src/actions/index\\.ts$' },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: { extensions: ['.ts', '.js'] },
  },
}
