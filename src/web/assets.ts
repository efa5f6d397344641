import { readFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { dirname, join } from 'node:path'
import type { FastifyInstance } from 'fastify'
import { fileBody, sendBody, type Body } from '../http/representation.ts'

const here = import.meta.dirname
const swaggerUi = dirname(createRequire(import.meta.url).resolve('swagger-ui-dist/package.json'))

const JS = 'text/javascript; charset=utf-8'
const CSS = 'text/css; charset=utf-8'

/** Every file the pages load, all from this server: no CDN, no third-party origin. */
const FILES: Record<string, { file: string; type: string }> = {
  '/assets/site.css': { file: join(here, 'assets/site.css'), type: CSS },
  '/assets/favicon.svg': { file: join(here, 'assets/favicon.svg'), type: 'image/svg+xml' },
  // Browsers ask for /favicon.ico whatever the page links; the same icon answers.
  '/favicon.ico': { file: join(here, 'assets/favicon.svg'), type: 'image/svg+xml' },
  '/assets/operator.js': { file: join(here, 'assets/operator.js'), type: JS },
  '/assets/docs.js': { file: join(here, 'assets/docs.js'), type: JS },
  '/assets/swagger-ui/swagger-ui-bundle.js': { file: join(swaggerUi, 'swagger-ui-bundle.js'), type: JS },
  '/assets/swagger-ui/swagger-ui.css': { file: join(swaggerUi, 'swagger-ui.css'), type: CSS },
}

/**
 * Serves the fixed asset files from memory (read once), with a strong ETag and revalidation, and
 * compressed once per encoding: compressing Swagger UI's 1.7 MB bundle took 27–40 ms of the event
 * loop on every request for it, which anyone could ask for in a loop.
 */
export function registerAssets(app: FastifyInstance): void {
  // By file: /favicon.ico and /assets/favicon.svg are one file, read and compressed once.
  const loaded = new Map<string, Body>()
  const load = (file: string) => {
    let body = loaded.get(file)
    if (!body) {
      body = fileBody(readFileSync(file))
      loaded.set(file, body)
    }
    return body
  }
  for (const [path, { file, type }] of Object.entries(FILES)) {
    app.get(path, { schema: { hide: true }, compress: false }, (request, reply) =>
      sendBody(request, reply, load(file), type, 'public, max-age=3600, must-revalidate'),
    )
  }
}
