// Many sign-ups at once, written straight into a migrated database (no outbox rows: no
// confirmation mails to wait for), for the campaign tests and benchmarks: `confirmed` confirmed
// ones, `unconfirmed` ones, and `unsubscribed` ones (confirmed, then stopped e-mails).
import Database from 'better-sqlite3'
import pg from 'pg'
import { type Env, loadConfig } from '../../server/config'
import { createStore } from '../../server/store/index'

export interface Seed {
  confirmed: number
  unconfirmed?: number
  unsubscribed?: number
  /** The addresses' prefix: `<prefix>-<kind>-<n>@example.com`. */
  prefix?: string
}

/** Answers the addresses of each kind. */
export async function seedSignUps(env: Env, seed: Seed): Promise<{ confirmed: string[]; unconfirmed: string[]; unsubscribed: string[] }> {
  const store = await createStore(loadConfig(env), { warn: () => undefined }) // migrates
  await store.close()
  const prefix = seed.prefix ?? 'seed'
  const addresses = (kind: string, n: number) => Array.from({ length: n }, (_, i) => `${prefix}-${kind}-${i}@example.com`)
  const groups = {
    confirmed: addresses('confirmed', seed.confirmed),
    unconfirmed: addresses('unconfirmed', seed.unconfirmed ?? 0),
    unsubscribed: addresses('unsubscribed', seed.unsubscribed ?? 0),
  }
  const rows = [
    ...groups.confirmed.map((email) => [email, true, false] as const),
    ...groups.unconfirmed.map((email) => [email, false, false] as const),
    ...groups.unsubscribed.map((email) => [email, true, true] as const),
  ]
  if (env.DATABASE_URL) {
    const client = new pg.Client({ connectionString: env.DATABASE_URL })
    await client.connect()
    await client.query(
      `INSERT INTO waitlist (email, confirmed_at, unsubscribed_at)
       SELECT email, CASE WHEN c THEN now() END, CASE WHEN u THEN now() END FROM unnest($1::text[], $2::boolean[], $3::boolean[]) AS r(email, c, u)`,
      [rows.map((r) => r[0]), rows.map((r) => r[1]), rows.map((r) => r[2])],
    )
    await client.end()
  } else {
    const db = new Database(env.SQLITE_PATH)
    const now = new Date().toISOString()
    const insert = db.prepare('INSERT INTO waitlist (email, confirmed_at, unsubscribed_at) VALUES (?, ?, ?)')
    db.transaction(() => {
      for (const [email, confirmed, unsubscribed] of rows) insert.run(email, confirmed ? now : null, unsubscribed ? now : null)
    })()
    db.close()
  }
  return groups
}
