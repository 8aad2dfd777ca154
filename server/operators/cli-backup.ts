// `npm run waitlist -- backup FILE`: an online copy of the SQLite database, taken while the server
// runs and writes (SQLite's backup API, page by page, through better-sqlite3), then checked: the
// copy's integrity and what it holds. PostgreSQL is backed up with its own tools (pg_dump, or the
// provider's snapshots): README, Operating.
import Database from 'better-sqlite3'
import { existsSync } from 'node:fs'
import { resolve } from 'node:path'
import type { Config } from '../config.js'
import { UsageError } from './cli-common.js'

/** What a copy holds, as `backup` prints it after checking it. */
export function describeCopy(file: string): string {
  const copy = new Database(file, { readonly: true, fileMustExist: true })
  try {
    const integrity = copy.pragma('integrity_check', { simple: true })
    if (integrity !== 'ok') throw new Error(`the copy ${file} failed its integrity check: ${String(integrity)}`)
    const count = (table: string) => Number(copy.prepare(`SELECT count(*) FROM ${table}`).pluck().get())
    return `${count('waitlist').toLocaleString('en')} sign-ups, ${count('outbox').toLocaleString('en')} mails, ${count('operators').toLocaleString('en')} operators; integrity ok`
  } finally {
    copy.close()
  }
}

export async function runBackup(config: Config, args: string[], out: (text: string) => void): Promise<number> {
  const [target] = args
  if (!target) throw new UsageError('backup: where to? e.g. npm run -s waitlist -- backup backups/waitlist-2026-11-25.db')
  if (config.DATABASE_URL) {
    throw new UsageError(
      'backup copies the SQLite database; with DATABASE_URL, use pg_dump (pg_dump --format=custom "$DATABASE_URL" > kennect.dump) or your provider\'s backups',
    )
  }
  if (existsSync(target)) throw new UsageError(`backup: ${target} exists already; choose a new file`)
  if (resolve(target) === resolve(config.SQLITE_PATH)) throw new UsageError('backup: the copy must be another file than the database')
  if (!existsSync(config.SQLITE_PATH)) throw new UsageError(`backup: there is no database at ${config.SQLITE_PATH} (SQLITE_PATH)`)
  const source = new Database(config.SQLITE_PATH, { readonly: true, fileMustExist: true })
  try {
    await source.backup(target)
  } finally {
    source.close()
  }
  out(`backup: ${target}: ${describeCopy(target)}\n`)
  return 0
}
