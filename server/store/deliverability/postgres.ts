// The deliverability figures in PostgreSQL, the same as deliverability/sqlite.ts.
import type pg from 'pg'
import { inTransaction, type Run } from '../shared/postgres.js'
import { readTallies } from '../tallies/postgres.js'
import type { DeliverabilityStore } from '../types.js'
import { DELIVERABILITY_TALLIES, deliverabilityOf, type SentCampaign } from './figures.js'

export function createPostgresDeliverability(pool: pg.Pool, run: Run): DeliverabilityStore {
  return {
    figures: () =>
      run(() =>
        inTransaction(pool, async (client) => {
          // One snapshot for the campaigns and their counts.
          await client.query('SET TRANSACTION ISOLATION LEVEL REPEATABLE READ, READ ONLY')
          const now = new Date()
          const campaigns = await client.query<SentCampaign>(
            `SELECT id::int AS id, subject, status, paused_reason AS "pausedReason" FROM campaigns WHERE status <> 'draft' ORDER BY id DESC`,
          )
          return deliverabilityOf(campaigns.rows, await readTallies(client, DELIVERABILITY_TALLIES), now)
        }),
      ),
  }
}
