// The ceiling for `npm run bench`: the same Fastify, one route that answers 201 and does nothing.
import Fastify from 'fastify'

const app = Fastify({ logger: false })
app.post('/rest/v1/waitlist', async (_request, reply) => reply.code(201).header('content-range', '*/*').send())
app.get('/readyz', async () => ({ status: 'ready' }))
await app.listen({ host: '127.0.0.1', port: Number(process.env.PORT ?? 0) })
const address = app.server.address()
console.log(`listening ${typeof address === 'object' && address ? address.port : address}`)
