// Partners in SQLite (docs/decisions/025-partners.md): made, changed, disabled and given a new key,
// each change with its audit line in one transaction; counted by their tallies (db/sqlite/018).
import type Database from 'better-sqlite3'
import { auditWriter, now, type Run } from '../shared/sqlite.js'
import type { SqliteTallies } from '../tallies/sqlite.js'
import type { PartnerBreakdown, PartnerRecord, PartnerStore } from '../types.js'
import { PARTNER_TALLIES, partnerCountsOf } from './shared.js'

const COLUMNS = 'id, name, key, origins, thanks_url, breed, country, disabled_at, created_at'
type Row = Omit<PartnerRecord, 'origins'> & { origins: string }
const toRecord = (row: Row): PartnerRecord => ({ ...row, origins: JSON.parse(row.origins) as string[] })

/** A partner's sign-ups per country, and per breed (each person once, a name the catalogue missed by its key). */
const COUNTRIES = `SELECT country, count(*) AS signups, count(confirmed_at) AS confirmed FROM waitlist
  WHERE partner_id = @id GROUP BY country ORDER BY signups DESC, confirmed DESC, country LIMIT @limit`
const BREEDS = `SELECT named.breed, min(named.name) AS name, count(DISTINCT w.id) AS signups,
    count(DISTINCT CASE WHEN w.confirmed_at IS NOT NULL THEN w.id END) AS confirmed
  FROM waitlist AS w JOIN signup_breeds AS named ON named.signup_id = w.id
  WHERE w.partner_id = @id GROUP BY coalesce(named.breed, '|' || named.name_key)
  ORDER BY signups DESC, confirmed DESC, name LIMIT @limit`

export function createSqlitePartners(db: Database.Database, run: Run, tallies: SqliteTallies): PartnerStore {
  const writeAudit = auditWriter(db)
  const insert = db.prepare(
    `INSERT INTO partners (name, key, origins, thanks_url, breed, country, created_at, updated_at)
     VALUES (@name, @key, @origins, @thanks_url, @breed, @country, @now, @now) RETURNING id`,
  )
  const all = db.prepare(`SELECT ${COLUMNS} FROM partners ORDER BY id`)
  const one = db.prepare(`SELECT ${COLUMNS} FROM partners WHERE id = ?`)
  const enabledByKey = db.prepare(`SELECT ${COLUMNS} FROM partners WHERE key = ? AND disabled_at IS NULL`)
  const update = db.prepare(
    `UPDATE partners SET name = @name, origins = @origins, thanks_url = @thanks_url, breed = @breed, country = @country,
       disabled_at = @disabled_at, updated_at = @now WHERE id = @id`,
  )
  const setKey = db.prepare('UPDATE partners SET key = @key, updated_at = @now WHERE id = @id')
  const countries = db.prepare(COUNTRIES)
  const breeds = db.prepare(BREEDS)
  const counted = () => partnerCountsOf(tallies.readNow(PARTNER_TALLIES))
  return {
    add: (fields, audit) =>
      run(() =>
        db.transaction(() => {
          const { name, key, thanks_url, breed, country } = fields
          const { id } = insert.get({ name, key, thanks_url, breed, country, origins: JSON.stringify(fields.origins), now: now() }) as {
            id: number
          }
          writeAudit({ ...audit, target: `partner ${id}` })
          return id
        })(),
      ),
    list: () =>
      run(() => {
        const counts = counted()
        return (all.all() as Row[]).map((row) => ({ ...toRecord(row), ...counts(row.id) }))
      }),
    get: (id) =>
      run(() => {
        const row = one.get(id) as Row | undefined
        return row && { ...toRecord(row), ...counted()(row.id) }
      }),
    byKey: (key) =>
      run(() => {
        const row = enabledByKey.get(key) as Row | undefined
        return row && toRecord(row)
      }),
    change: (id, change, audit) =>
      run(() =>
        db.transaction(() => {
          const row = one.get(id) as Row | undefined
          if (!row) return false
          const at = now()
          const next = { ...toRecord(row), ...change }
          // Disabling keeps the moment it first happened; enabling clears it.
          const disabledAt = change.disabled === undefined ? row.disabled_at : change.disabled ? (row.disabled_at ?? at) : null
          update.run({
            id,
            name: next.name,
            origins: JSON.stringify(next.origins),
            thanks_url: next.thanks_url,
            breed: next.breed,
            country: next.country,
            disabled_at: disabledAt,
            now: at,
          })
          writeAudit(audit)
          return true
        })(),
      ),
    rotate: (id, key, audit) =>
      run(() =>
        db.transaction(() => {
          if (setKey.run({ id, key, now: now() }).changes === 0) return false
          writeAudit(audit)
          return true
        })(),
      ),
    breakdown: (id, limit) =>
      run((): PartnerBreakdown => ({
        countries: countries.all({ id, limit }) as PartnerBreakdown['countries'],
        breeds: breeds.all({ id, limit }) as PartnerBreakdown['breeds'],
      })),
  }
}
