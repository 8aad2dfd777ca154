// Long reads of SQLite off the event loop. better-sqlite3 answers in the calling thread: a query
// that reads a million rows holds the server's only thread, and every sign-up arriving meanwhile
// waits behind it. A read the store cannot keep as a tally (docs/decisions/021-tallies.md) runs
// here instead, on a read-only connection of its own in a worker thread (WAL lets it read while the
// server writes), and the server goes on.
import { Worker } from 'node:worker_threads'
import { StoreUnavailableError } from '../types.js'

/** A read of rows by SQL: on the reader's thread, or (a database in memory, a command) on this one. */
export type SqliteRead = <T>(sql: string, params?: Record<string, unknown> | unknown[]) => Promise<T[]>

export interface SqliteReader {
  all<T>(sql: string, params?: Record<string, unknown> | unknown[]): Promise<T[]>
  close(): Promise<void>
}

/** The worker's file beside this one: the build's .js, or in the tests this source's .ts. */
const workerFile = new URL(`./sqlite-reader-worker.${import.meta.url.endsWith('.ts') ? 'ts' : 'js'}`, import.meta.url)

export function createSqliteReader(path: string): SqliteReader {
  let worker: Worker | undefined
  let closed = false
  let next = 0
  /** Each thread's questions: a thread that stops fails its own, never a newer thread's. */
  const asked = new Map<Worker, Map<number, { resolve: (rows: unknown[]) => void; reject: (error: unknown) => void }>>()
  const stopped = (thread: Worker, error: unknown) => {
    if (worker === thread) worker = undefined
    for (const { reject } of asked.get(thread)?.values() ?? []) reject(error)
    asked.delete(thread)
  }
  const start = () => {
    const thread = new Worker(workerFile, { workerData: { path } })
    thread.unref()
    asked.set(thread, new Map())
    thread.on('message', ({ id, rows, error }: { id: number; rows?: unknown[]; error?: { message: string; code?: string } }) => {
      const waiting = asked.get(thread)
      const question = waiting?.get(id)
      waiting?.delete(id)
      if (waiting?.size === 0) thread.unref()
      if (!question) return
      if (error) {
        const failure = Object.assign(new Error(error.message), { code: error.code })
        question.reject(
          /^SQLITE_(BUSY|LOCKED|IOERR)/.test(error.code ?? '')
            ? new StoreUnavailableError(`SQLite: ${error.code}`, { cause: failure })
            : failure,
        )
      } else question.resolve(rows ?? [])
    })
    // A thread that dies takes its questions with it, answered as the store being unavailable; the next question starts another.
    thread.on('error', (error) => stopped(thread, new StoreUnavailableError('SQLite: the reader thread stopped', { cause: error })))
    thread.on('exit', () => stopped(thread, new StoreUnavailableError('SQLite: the reader thread stopped')))
    return thread
  }
  return {
    all: <T>(sql: string, params: Record<string, unknown> | unknown[] = {}) =>
      new Promise<T[]>((resolve, reject) => {
        if (closed) throw new StoreUnavailableError('the SQLite store is closed')
        const thread = (worker ??= start())
        const id = next++
        asked.get(thread)?.set(id, { resolve: resolve as (rows: unknown[]) => void, reject })
        thread.ref()
        thread.postMessage({ id, sql, params })
      }),
    // The thread closes its own connection and ends (Node 26 aborted a process whose reader was
    // terminated while it opened the file); one that does not end in 5 s is terminated.
    close: async () => {
      closed = true
      const stopping = worker
      worker = undefined
      if (!stopping) return
      stopping.ref()
      const ended = new Promise<void>((resolve) => stopping.once('exit', () => resolve()))
      stopping.postMessage({ close: true })
      const late = setTimeout(() => void stopping.terminate(), 5_000)
      await ended
      clearTimeout(late)
    },
  }
}
