// The outbox's claim must not sort every waiting mail: with a campaign of thousands queued, each
// claim walks the index in the outbox's order and stops at its batch. (Timings belong to
// `npm run bench:mail`; this checks the plan, which decides them.) Before db/*/005 a 100,000
// campaign on PostgreSQL sent 66 mails a second, a third of a 10,000 one's pace.
import Database from 'better-sqlite3'
import pg from 'pg'
import { afterEach, describe, expect, it } from 'vitest'
import { loadConfig } from '../../server/config'
import { createStore } from '../../server/store/index'
import { CLAIM_SQL as POSTGRES_CLAIM } from '../../server/store/outbox/postgres'
import { CLAIM_SQL as SQLITE_CLAIM } from '../../server/store/outbox/sqlite'
import { seedSignUps } from '../support/seed'
import { freshDatabase } from '../support/server'
import { STORES } from '../support/stores'
import { row } from '../support/rows'

const RECIPIENTS = 5_000
const BATCH = 50

const cleanups: (() => Promise<unknown>)[] = []
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup()
})

/** A database with RECIPIENTS campaign mails and a confirmation waiting. */
async function queued(kind: 'sqlite' | 'postgres') {
  const database = await freshDatabase(kind)
  cleanups.push(database.cleanup)
  await seedSignUps(database.env, { confirmed: RECIPIENTS, prefix: 'plan' })
  const store = await createStore(loadConfig(database.env), { warn: () => undefined })
  try {
    const id = await store.campaigns.create({
      subject: 'Plan',
      markdown: 'Hello',
      translations: {},
      segment: { includeUnconfirmed: false },
    })
    expect((await store.campaigns.send(id))?.recipients).toBe(RECIPIENTS)
    await store.add(row('newcomer@example.com'))
  } finally {
    await store.close()
  }
  return database.env
}

describe.each(STORES)('the outbox claim on $kind', ({ kind, available }) => {
  it.skipIf(!available)(
    `walks the claim index and sorts only its batch, with ${RECIPIENTS.toLocaleString('en')} mails waiting`,
    async () => {
      const env = await queued(kind)
      if (kind === 'sqlite') {
        const db = new Database(env.SQLITE_PATH ?? '')
        try {
          db.exec('ANALYZE')
          const plan = (
            db.prepare(`EXPLAIN QUERY PLAN ${SQLITE_CLAIM}`).all({ now: new Date().toISOString(), limit: BATCH }) as { detail: string }[]
          ).map((step) => step.detail)
          expect(plan.some((step) => /SCAN outbox USING INDEX outbox_claim/.test(step))).toBe(true)
          // One sort: the batch's, at the end.
          expect(plan.filter((step) => /TEMP B-TREE FOR ORDER BY/.test(step))).toHaveLength(1)
        } finally {
          db.close()
        }
      } else {
        const client = new pg.Client({ connectionString: env.DATABASE_URL })
        await client.connect()
        try {
          await client.query('ANALYZE')
          const rows = (await client.query<{ 'QUERY PLAN': string }>(`EXPLAIN ${POSTGRES_CLAIM}`, [BATCH])).rows
          const plan = rows.map((row) => row['QUERY PLAN']).join('\n')
          expect(plan).toMatch(/Index Scan using outbox_claim on outbox/)
          expect(plan.match(/Sort Key:/g) ?? []).toHaveLength(1)
        } finally {
          await client.end()
        }
      }
    },
  )
})
