// A webhook receiver for tests: a local HTTP server that verifies every request with the
// standardwebhooks package, as a team's CRM or automation tool would, and keeps what it got.
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http'
import { Webhook } from 'standardwebhooks'
import { OUTCOME_WAIT_MS } from './waits'

export interface Received {
  id: string
  type: string
  timestamp: string
  data: Record<string, unknown>
  headers: IncomingHttpHeaders
  /** Which of the secrets given verified it. */
  verifiedBy: string[]
}

export interface Receiver {
  url: string
  port: number
  /** Verified requests, in order. */
  received: Received[]
  /** Requests that did not verify with any secret. */
  rejected: number
  /** Every request that reached the server, verified or not. */
  connections: number
  /** The status (and headers) of the next answers; 204 unless told. */
  answer: (respond: (request: number) => { status: number; headers?: Record<string, string>; body?: string }) => void
  secrets: string[]
  close: () => Promise<void>
  /** Resolves once `predicate` holds for what was received. */
  until: (predicate: (received: Received[]) => boolean, timeoutMs?: number) => Promise<void>
}

export async function startReceiver(secrets: string[] = [], port = 0): Promise<Receiver> {
  let respond: (request: number) => { status: number; headers?: Record<string, string>; body?: string } = () => ({ status: 204 })
  let requests = 0
  const receiver: Receiver = {
    url: '',
    port: 0,
    received: [],
    rejected: 0,
    connections: 0,
    secrets,
    answer: (next) => (respond = next),
    close: () => new Promise((resolve) => server.close(() => resolve())),
    until: async (predicate, timeoutMs = OUTCOME_WAIT_MS) => {
      const end = Date.now() + timeoutMs
      while (!predicate(receiver.received)) {
        if (Date.now() > end)
          throw new Error(
            `the receiver did not get what was awaited; it has ${receiver.received.length}: ${receiver.received.map((r) => r.type).join(', ')}`,
          )
        await new Promise((resolve) => setTimeout(resolve, 50))
      }
    },
  }
  const server: Server = createServer((request, response) => {
    receiver.connections++
    const chunks: Buffer[] = []
    request.on('data', (chunk: Buffer) => chunks.push(chunk))
    request.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8')
      const verifiedBy = receiver.secrets.filter((secret) => {
        try {
          new Webhook(secret).verify(body, request.headers as Record<string, string>)
          return true
        } catch {
          return false
        }
      })
      const answer = respond(requests++)
      if (verifiedBy.length === 0) receiver.rejected++
      else if (answer.status >= 200 && answer.status < 300) {
        const parsed = JSON.parse(body) as { type: string; timestamp: string; data: Record<string, unknown> }
        receiver.received.push({ id: String(request.headers['webhook-id']), ...parsed, headers: request.headers, verifiedBy })
      }
      response.on('error', () => undefined) // a sender that stops reading a long answer
      response.writeHead(answer.status, answer.headers).end(answer.status === 204 ? undefined : (answer.body ?? 'ok'))
    })
  })
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve))
  const address = server.address()
  if (!address || typeof address === 'string') throw new Error('no address')
  receiver.port = address.port
  receiver.url = `http://127.0.0.1:${address.port}/hooks/kennect`
  return receiver
}
