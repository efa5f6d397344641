import { execFile } from 'node:child_process'
import { promisify } from 'node:util'

const ROOT = new URL('../../', import.meta.url)
const run = promisify(execFile)

/** `npm run verify` with these arguments, as an outsider runs it: its exit code and what it printed. */
export async function npmVerify(...args: string[]): Promise<{ code: number; out: string }> {
  try {
    const { stdout } = await run(process.execPath, ['src/main.ts', 'verify', ...args], { cwd: ROOT })
    return { code: 0, out: stdout.trim() }
  } catch (err) {
    const failed = err as { code: number; stdout: string; stderr: string }
    return { code: failed.code, out: `${failed.stdout}${failed.stderr}`.trim() }
  }
}
