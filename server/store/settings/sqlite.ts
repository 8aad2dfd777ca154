// Settings in SQLite: one JSON value per key (the table of db/sqlite/006).
import type Database from 'better-sqlite3'
import { now, type Run } from '../shared/sqlite.js'
import type { SettingsStore } from '../types.js'

export function createSqliteSettings(db: Database.Database, run: Run): SettingsStore {
  const get = db.prepare('SELECT value FROM settings WHERE key = ?').pluck()
  const put = db.prepare(
    `INSERT INTO settings (key, value, updated_at) VALUES (@key, @value, @now)
     ON CONFLICT (key) DO UPDATE SET value = excluded.value, updated_at = excluded.updated_at`,
  )
  return {
    read: (key) =>
      run(() => {
        const value = get.get(key) as string | undefined
        return value === undefined ? undefined : (JSON.parse(value) as unknown)
      }),
    write: (key, value) => run(() => void put.run({ key, value: JSON.stringify(value), now: now() })),
  }
}
