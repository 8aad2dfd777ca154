// Long reads of SQLite off the event loop. better-sqlite3 answers in the calling thread: a query
// that reads a million rows holds the server's only thread, and every sign-up arriving meanwhile
// waits behind it. A read the store cannot keep as a tally (docs/decisions/021-tallies.md) runs
// here instead, on a read-only connection of its own in a worker thread (WAL lets it read while the
// server writes), and the server goes on.
import { Worker } from 'node:worker_threads'
import { StoreUnavailableError } from '../types.js'

export interface SqliteReader {
  all<T>(sql: string, params?: Record<string, unknown> | unknown[]): Promise<T[]>
  close(): Promise<void>
}

/** The worker's file beside this one: the build's .js, or in the tests this source's .ts. */
const workerFile = new URL(`./sqlite-reader-worker.${import.meta.url.endsWith('.ts') ? 'ts' : 'js'}`, import.meta.url)

export function createSqliteReader(path: string): SqliteReader {
  let worker: Worker | undefined
  let next = 0
  const waiting = new Map<number, { resolve: (rows: unknown[]) => void; reject: (error: unknown) => void }>()
  const failAll = (error: unknown) => {
    for (const { reject } of waiting.values()) reject(error)
    waiting.clear()
  }
  const start = () => {
    const started = new Worker(workerFile, { workerData: { path } })
    started.unref()
    started.on('message', ({ id, rows, error }: { id: number; rows?: unknown[]; error?: { message: string; code?: string } }) => {
      const asked = waiting.get(id)
      waiting.delete(id)
      if (!asked) return
      if (error) {
        const failure = Object.assign(new Error(error.message), { code: error.code })
        asked.reject(/^SQLITE_(BUSY|LOCKED|IOERR)/.test(error.code ?? '') ? new StoreUnavailableError(`SQLite: ${error.code}`, { cause: failure }) : failure)
      } else asked.resolve(rows ?? [])
    })
    // A thread that dies takes its questions with it, answered as the store being unavailable; the next question starts another.
    started.on('error', (error) => {
      worker = undefined
      failAll(new StoreUnavailableError('SQLite: the reader thread stopped', { cause: error }))
    })
    started.on('exit', () => {
      if (worker === started) worker = undefined
      failAll(new StoreUnavailableError('SQLite: the reader thread stopped'))
    })
    return started
  }
  return {
    all: <T>(sql: string, params: Record<string, unknown> | unknown[] = {}) =>
      new Promise<T[]>((resolve, reject) => {
        const id = next++
        waiting.set(id, { resolve: resolve as (rows: unknown[]) => void, reject })
        worker ??= start()
        worker.ref()
        worker.postMessage({ id, sql, params })
      }).finally(() => {
        if (waiting.size === 0) worker?.unref()
      }),
    close: async () => {
      const stopping = worker
      worker = undefined
      if (stopping) await stopping.terminate()
    },
  }
}
