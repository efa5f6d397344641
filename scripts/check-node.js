/* global process, console */
// Plain JavaScript on purpose: it runs first in every npm script, on whatever Node is on the PATH,
// so an old Node gets this sentence instead of Node's bare "Unknown file extension .ts".
const [major, minor] = process.versions.node.split('.').map(Number)
if (major < 22 || (major === 22 && minor < 18)) {
  console.error(
    `Clearing needs Node.js >= 22.18 (it runs its TypeScript directly); this is Node ${process.version} (${process.execPath}).\n` +
      'Run "npm ci" first: it installs Node 24 for the npm scripts (the "node" dependency). Or install Node 24 LTS.',
  )
  process.exit(1)
}
