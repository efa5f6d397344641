/** The bare baseline: Fastify's hello-world route, measured in the same run as Clearing. */
import Fastify from 'fastify'

const app = Fastify({ logger: false })
app.get('/', async () => ({ hello: 'world' }))
await app.listen({ port: Number(process.env.PORT ?? 0), host: '127.0.0.1' })
