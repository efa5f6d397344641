import type { FastifyInstance } from 'fastify'
import type { Database } from '../db/database.ts'
import { databaseAnswers } from '../store/health.ts'

export function registerHealth(app: FastifyInstance, database: Database): void {
  app.get('/healthz', { schema: { hide: true } }, async (_request, reply) => {
    if (await databaseAnswers(database.db)) return { status: 'ok' }
    return reply.code(503).send({ error: { code: 'unavailable', message: 'The database is not reachable.' } })
  })
}
