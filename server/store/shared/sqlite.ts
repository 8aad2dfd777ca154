// What the SQLite store's parts share: how work is run and its errors told, moments, the audit log's writer.
import type Database from 'better-sqlite3'
import { StoreUnavailableError, type AuditEntry } from '../types.js'

/** Runs synchronous work as the store's promise, its errors told as the store tells them. */
export type Run = <T>(work: () => T) => Promise<T>

export const now = () => new Date().toISOString()

/** created_at is stored as ISO 8601 text in UTC, so moments compare as text once in that form. */
export function toSqliteTime(since: string | undefined): string {
  return since ? new Date(since).toISOString() : ''
}

/** Busy, locked, full or I/O errors are retryable; anything else is a bug and stays an error. */
export function toStoreError(error: unknown): unknown {
  const code = (error as { code?: unknown } | null)?.code
  if (typeof code === 'string' && /^SQLITE_(BUSY|LOCKED|FULL|IOERR|CANTOPEN|READONLY)/.test(code)) {
    return new StoreUnavailableError(`SQLite: ${code}`, { cause: error })
  }
  return error
}

/** The start and end (exclusive) of the UTC day of a moment, as stored moments compare. */
export function utcDay(at: string): { start: string; end: string } {
  const start = `${at.slice(0, 10)}T00:00:00.000Z`
  return { start, end: new Date(Date.parse(start) + 86_400_000).toISOString() }
}

/** The audit log's writer: a line written in the transaction of what it records (when there is one). */
export function auditWriter(db: Database.Database): (entry: AuditEntry) => void {
  const insert = db.prepare(
    `INSERT INTO audit_log (at, actor_id, actor, action, target, detail, request_id)
     VALUES (@at, @actorId, @actor, @action, @target, @detail, @requestId)`,
  )
  return (entry) => void insert.run({ ...entry, at: now(), detail: entry.detail === null ? null : JSON.stringify(entry.detail) })
}
