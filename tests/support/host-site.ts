// A partner's own site for browser tests (docs/partners.md): a plain HTTP server on another
// 127.0.0.1 port, so another origin than Kennect's, serving the pages a test gives with the headers
// it gives (a strict CSP, say), and keeping every request it got.
import { createServer, type IncomingMessage } from 'node:http'

export interface HostPage {
  body: string
  type?: string
  headers?: Record<string, string>
}

export interface HostSite {
  /** http://127.0.0.1:<port> */
  origin: string
  /** What it was asked for: method and path with query. */
  requests: string[]
  close: () => Promise<void>
}

/** A site answering each path with `pages(path)`, or 404 when it gives none. */
export async function startHostSite(pages: (path: string, request: IncomingMessage) => HostPage | undefined): Promise<HostSite> {
  const requests: string[] = []
  const server = createServer((request, response) => {
    requests.push(`${request.method} ${request.url}`)
    const page = pages(request.url ?? '/', request)
    if (!page) {
      response.writeHead(404, { 'content-type': 'text/plain' }).end('not found')
      return
    }
    response.writeHead(200, { 'content-type': page.type ?? 'text/html; charset=utf-8', 'cache-control': 'no-store', ...page.headers })
    response.end(page.body)
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const address = server.address()
  if (address === null || typeof address === 'string') throw new Error('the host site has no port')
  return {
    origin: `http://127.0.0.1:${address.port}`,
    requests,
    close: () =>
      new Promise((resolve, reject) => {
        server.closeAllConnections()
        server.close((error) => (error ? reject(error) : resolve()))
      }),
  }
}
