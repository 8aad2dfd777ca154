// The built server as the benchmarks start it (bench/scale.ts, bench/import.ts): on a free port of
// 127.0.0.1, its limits off, its log at warn, with bench/loop-probe.mjs loaded into it, so that a
// bench asks the process itself how long its event loop was held and how much memory it holds.
import { type ChildProcess, fork } from 'node:child_process'
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { root } from '../scripts/ensure-build.mjs'
import { freePort } from '../tests/support/ports'

export interface ProbedServer {
  server: ChildProcess
  base: string
  /** The longest hold of the event loop since the last ask (ms), or the resident memory now (bytes). */
  probe(question: 'loop-max' | 'rss'): Promise<number>
  /** Resolves once /readyz answers 200 (a minute at most). */
  ready(): Promise<void>
  /**
   * Sign-ups four at a time, each a new address: 300 of them, or until `until` says stop. Their
   * p99 (ms) and how many were answered.
   */
  signUps(until?: () => boolean): Promise<{ p99: number; count: number }>
}

/**
 * The flags `npm start` gives Node (package.json's start script, between `node` and the script): a
 * benchmark measures the server as it is deployed. Only `--name` or `--name=value` flags are read;
 * any other shape of the script stops the benchmark, saying so, rather than run it otherwise.
 */
export function serverNodeFlags(): string[] {
  const start = (JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { scripts: { start: string } }).scripts.start
  const flags = /\bnode((?:\s+--\S+)*)\s+scripts\/start\.mjs\b/.exec(start)
  if (!flags) throw new Error(`package.json's start script is not "node [flags] scripts/start.mjs": ${start}`)
  return (flags[1] ?? '').split(/\s+/).filter(Boolean)
}

/** A quantile of sorted numbers (the nearest rank). */
export const quantile = (sorted: readonly number[], q: number) => sorted[Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1)] ?? 0

export async function startProbedServer(
  env: Record<string, string | undefined>,
  adminToken: string,
  mailDir: string,
): Promise<ProbedServer> {
  const port = await freePort()
  const server = fork(join(root, 'dist', 'server', 'main.js'), [], {
    execArgv: [...serverNodeFlags(), '--import', join(root, 'bench', 'loop-probe.mjs')],
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
  const base = `http://127.0.0.1:${port}`
  const ready = async () => {
    for (let i = 0; ; i++) {
      const up = await fetch(`${base}/readyz`).then(
        (answer) => answer.ok,
        () => false,
      )
      if (up) return
      if (i > 600) throw new Error('the server did not start')
      await new Promise((resolve) => setTimeout(resolve, 100))
    }
  }
  let next = 0
  const signUps = async (until?: () => boolean) => {
    const times: number[] = []
    const one = async () => {
      const started = performance.now()
      const answer = await fetch(`${base}/rest/v1/waitlist`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ email: `bench-${process.pid}-${next++}@bench.example` }),
      })
      if (answer.status !== 201) throw new Error(`sign-up: ${answer.status}`)
      times.push(performance.now() - started)
    }
    for (let i = 0; until ? !until() : i < 75; i++) await Promise.all([one(), one(), one(), one()])
    times.sort((a, b) => a - b)
    return { p99: quantile(times, 0.99), count: times.length }
  }
  return { server, base, probe, ready, signUps }
}
