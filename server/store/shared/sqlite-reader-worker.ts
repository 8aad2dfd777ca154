// The SQLite reader's thread (sqlite-reader.ts): a read-only connection of its own to the store's
// file, answering one query at a time. It imports nothing of the server: in the tests it runs from
// this source file as it is (Node strips its types), in production from the build's.
import Database from 'better-sqlite3'
import { parentPort, workerData } from 'node:worker_threads'

interface Ask {
  id: number
  sql: string
  params: Record<string, unknown> | unknown[]
}

const db = new Database((workerData as { path: string }).path, { readonly: true, fileMustExist: true })
db.pragma('busy_timeout = 5000')
const statements = new Map<string, Database.Statement>()

parentPort?.on('message', ({ id, sql, params, close }: Ask & { close?: boolean }) => {
  if (close) {
    db.close()
    process.exit(0)
  }
  try {
    let statement = statements.get(sql)
    if (!statement) statements.set(sql, (statement = db.prepare(sql)))
    parentPort?.postMessage({ id, rows: Array.isArray(params) ? statement.all(...params) : statement.all(params) })
  } catch (error) {
    const { message, code } = error as { message?: string; code?: string }
    parentPort?.postMessage({ id, error: { message: message ?? String(error), code } })
  }
})
