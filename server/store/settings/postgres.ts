// Settings in PostgreSQL: one JSON value per key (the table of db/postgres/006).
import type pg from 'pg'
import type { Run } from '../shared/postgres.js'
import type { SettingsStore } from '../types.js'

export function createPostgresSettings(pool: pg.Pool, run: Run): SettingsStore {
  return {
    read: (key) =>
      run(async () => {
        const result = await pool.query<{ value: unknown }>('SELECT value FROM settings WHERE key = $1', [key])
        return result.rows[0]?.value
      }),
    write: (key, value) =>
      run(async () => {
        await pool.query(
          `INSERT INTO settings (key, value, updated_at) VALUES ($1, $2, now())
           ON CONFLICT (key) DO UPDATE SET value = excluded.value, updated_at = excluded.updated_at`,
          [key, JSON.stringify(value)],
        )
      }),
  }
}
