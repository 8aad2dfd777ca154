// The built server as the benchmarks start it (bench/scale.ts, bench/import.ts): on a free port of
// 127.0.0.1, its limits off, its log at warn, with bench/loop-probe.mjs loaded into it, so that a
// bench asks the process itself how long its event loop was held and how much memory it holds.
import { type ChildProcess, fork } from 'node:child_process'
import { join } from 'node:path'
import { root } from '../scripts/ensure-build.mjs'
import { freePort } from '../tests/support/ports'

export interface ProbedServer {
  server: ChildProcess
  base: string
  /** The longest hold of the event loop since the last ask (ms), or the resident memory now (bytes). */
  probe(question: 'loop-max' | 'rss'): Promise<number>
}

export async function startProbedServer(
  env: Record<string, string | undefined>,
  adminToken: string,
  mailDir: string,
): Promise<ProbedServer> {
  const port = await freePort()
  const server = fork(join(root, 'dist', 'server', 'main.js'), [], {
    execArgv: ['--import', join(root, 'bench', 'loop-probe.mjs')],
    env: {
      PATH: process.env.PATH,
      ...env,
      HOST: '127.0.0.1',
      PORT: String(port),
      ADMIN_TOKEN: adminToken,
      MAIL_DIR: mailDir,
      LOG_LEVEL: 'warn',
      RATE_LIMIT_PER_MINUTE: '0',
      RATE_LIMIT_PER_HOUR: '0',
    },
    stdio: ['ignore', 'ignore', 'inherit', 'ipc'],
  })
  const probe = (question: 'loop-max' | 'rss') =>
    new Promise<number>((resolve) => {
      server.once('message', (answer: { loopMax?: number; rss?: number }) => resolve(answer.loopMax ?? answer.rss ?? 0))
      server.send(question)
    })
  return { server, base: `http://127.0.0.1:${port}`, probe }
}
