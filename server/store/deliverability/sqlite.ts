// The deliverability figures in SQLite (docs/decisions/020-deliverability.md): the campaigns sent,
// and the tallies, read in one transaction so that they add up.
import type Database from 'better-sqlite3'
import type { Run } from '../shared/sqlite.js'
import type { SqliteTallies } from '../tallies/sqlite.js'
import type { DeliverabilityStore } from '../types.js'
import { DELIVERABILITY_TALLIES, deliverabilityOf, type SentCampaign } from './figures.js'

export function createSqliteDeliverability(db: Database.Database, run: Run, tallies: SqliteTallies): DeliverabilityStore {
  const campaigns = db.prepare(
    `SELECT id, subject, status, paused_reason AS pausedReason FROM campaigns WHERE status <> 'draft' ORDER BY id DESC`,
  )
  const read = db.transaction((now: Date) =>
    deliverabilityOf(campaigns.all() as SentCampaign[], tallies.readNow(DELIVERABILITY_TALLIES), now),
  )
  return { figures: () => run(() => read(new Date())) }
}
