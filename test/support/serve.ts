import { spawn } from 'node:child_process'
import { START_ENV, START_FLAGS } from '../../scripts/start-flags.ts'

/** The real entry point with `npm start`'s variables and node flags: `[NAME=value] node [flags] src/main.ts serve`. */
export function serve(env: Record<string, string>) {
  const child = spawn(process.execPath, [...START_FLAGS, 'src/main.ts', 'serve'], {
    env: {
      ...process.env,
      ...START_ENV,
      PORT: '0',
      HOST: '127.0.0.1',
      LOG_LEVEL: 'debug',
      KEY_PEPPER: 'lifecycle-test-pepper-0123456789abcdef',
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
