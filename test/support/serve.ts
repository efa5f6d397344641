import { spawn } from 'node:child_process'
import { TEST_SIGNING_KEY } from '../../src/config.ts'

const ROOT = new URL('../../', import.meta.url)

/** The real entry point, as `npm start` runs it (`node src/main.ts serve`), or `npm start` itself. */
export function serve(env: Record<string, string>, { npm = false } = {}) {
  const [command, args] = npm ? ['npm', ['start']] : [process.execPath, ['src/main.ts', 'serve']]
  const child = spawn(command, args, {
    cwd: ROOT,
    // npm start in a process group of its own, so the test can end whatever it left running.
    detached: npm,
    env: {
      ...process.env,
      PORT: '0',
      HOST: '127.0.0.1',
      LOG_LEVEL: 'debug',
      KEY_PEPPER: 'lifecycle-test-pepper-0123456789abcdef',
      SIGNING_KEY: TEST_SIGNING_KEY,
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  let output = ''
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()))
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()))
  const listening = new Promise<string>((resolve, reject) => {
    const timer = setInterval(() => {
      const match = /Server listening at (http:\/\/127\.0\.0\.1:\d+)/.exec(output)
      if (match?.[1]) {
        clearInterval(timer)
        resolve(match[1])
      }
    }, 20)
    child.once('exit', (code) => {
      clearInterval(timer)
      reject(new Error(`exited early with ${code}: ${output}`))
    })
  })
  return { child, listening, output: () => output }
}
