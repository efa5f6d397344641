import type { FastifyInstance } from 'fastify'
import { sql } from 'kysely'
import type { Database } from '../db/database.ts'

export function registerHealth(app: FastifyInstance, database: Database): void {
  app.get('/healthz', { schema: { hide: true } }, async (_request, reply) => {
    try {
      await sql`select 1`.execute(database.db)
      return { status: 'ok' }
    } catch {
      return reply.code(503).send({ error: { code: 'unavailable', message: 'The database is not reachable.' } })
    }
  })
}
