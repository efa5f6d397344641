import { createHash } from 'node:crypto'
import { readFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { dirname, join } from 'node:path'
import type { FastifyInstance } from 'fastify'

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

interface Loaded {
  body: Buffer
  etag: string
}

/** Serves the fixed asset files from memory (read once), with a strong ETag and revalidation. */
export function registerAssets(app: FastifyInstance): void {
  const loaded = new Map<string, Loaded>()
  const load = (path: string, file: string): Loaded => {
    let entry = loaded.get(path)
    if (!entry) {
      const body = readFileSync(file)
      entry = { body, etag: `"${createHash('sha256').update(body).digest('base64url').slice(0, 22)}"` }
      loaded.set(path, entry)
    }
    return entry
  }
  for (const [path, { file, type }] of Object.entries(FILES)) {
    app.get(path, { schema: { hide: true } }, async (request, reply) => {
      const { body, etag } = load(path, file)
      reply.header('etag', etag).header('cache-control', 'public, max-age=3600, must-revalidate')
      if (request.headers['if-none-match'] === etag) return reply.code(304).send()
      return reply.type(type).send(body)
    })
  }
}
