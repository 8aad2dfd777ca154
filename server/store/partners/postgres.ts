// Partners in PostgreSQL, as partners/sqlite.ts: each change with its audit line in one
// transaction; counted by their tallies (db/postgres/018).
import type pg from 'pg'
import { inTransaction, iso, type Run, writeAudit } from '../shared/postgres.js'
import { readTallies } from '../tallies/postgres.js'
import type { PartnerBreakdown, PartnerRecord, PartnerStore } from '../types.js'
import { PARTNER_TALLIES, partnerCountsOf } from './shared.js'

const COLUMNS = `id, name, key, origins, thanks_url, breed, country, ${iso('disabled_at')} AS disabled_at, ${iso('created_at')} AS created_at`

const COUNTRIES = `SELECT country, count(*)::int AS signups, count(confirmed_at)::int AS confirmed FROM waitlist
  WHERE partner_id = $1 GROUP BY country ORDER BY signups DESC, confirmed DESC, country LIMIT $2`
const BREEDS = `SELECT min(named.breed) AS breed, min(named.name) AS name, count(DISTINCT w.id)::int AS signups,
    count(DISTINCT w.id) FILTER (WHERE w.confirmed_at IS NOT NULL)::int AS confirmed
  FROM waitlist AS w JOIN signup_breeds AS named ON named.signup_id = w.id
  WHERE w.partner_id = $1 GROUP BY coalesce(named.breed, '|' || named.name_key)
  ORDER BY signups DESC, confirmed DESC, name LIMIT $2`

export function createPostgresPartners(pool: pg.Pool, run: Run): PartnerStore {
  const counted = async () => partnerCountsOf(await readTallies(pool, PARTNER_TALLIES))
  return {
    add: (fields, audit) =>
      run(() =>
        inTransaction(pool, async (client) => {
          const { rows } = await client.query<{ id: number }>(
            `INSERT INTO partners (name, key, origins, thanks_url, breed, country) VALUES ($1, $2, $3, $4, $5, $6) RETURNING id`,
            [fields.name, fields.key, fields.origins, fields.thanks_url, fields.breed, fields.country],
          )
          const id = rows[0]?.id
          if (id === undefined) throw new Error('a partner inserted answered no id')
          await writeAudit(client, { ...audit, target: `partner ${id}` })
          return id
        }),
      ),
    list: () =>
      run(async () => {
        const [{ rows }, counts] = await Promise.all([pool.query<PartnerRecord>(`SELECT ${COLUMNS} FROM partners ORDER BY id`), counted()])
        return rows.map((row) => ({ ...row, ...counts(row.id) }))
      }),
    get: (id) =>
      run(async () => {
        const [{ rows }, counts] = await Promise.all([
          pool.query<PartnerRecord>(`SELECT ${COLUMNS} FROM partners WHERE id = $1`, [id]),
          counted(),
        ])
        const row = rows[0]
        return row && { ...row, ...counts(row.id) }
      }),
    byKey: (key) =>
      run(async () => {
        const { rows } = await pool.query<PartnerRecord>(`SELECT ${COLUMNS} FROM partners WHERE key = $1 AND disabled_at IS NULL`, [key])
        return rows[0]
      }),
    change: (id, change, audit) =>
      run(() =>
        inTransaction(pool, async (client) => {
          const { rows } = await client.query<PartnerRecord>(`SELECT ${COLUMNS} FROM partners WHERE id = $1 FOR UPDATE`, [id])
          const row = rows[0]
          if (!row) return false
          const next = { ...row, ...change }
          // Disabling keeps the moment it first happened; enabling clears it.
          await client.query(
            `UPDATE partners SET name = $2, origins = $3, thanks_url = $4, breed = $5, country = $6, updated_at = now(),
               disabled_at = CASE WHEN $7::boolean IS NULL THEN disabled_at WHEN $7 THEN coalesce(disabled_at, now()) END
             WHERE id = $1`,
            [id, next.name, next.origins, next.thanks_url, next.breed, next.country, change.disabled ?? null],
          )
          await writeAudit(client, audit)
          return true
        }),
      ),
    rotate: (id, key, audit) =>
      run(() =>
        inTransaction(pool, async (client) => {
          const { rowCount } = await client.query('UPDATE partners SET key = $2, updated_at = now() WHERE id = $1', [id, key])
          if (rowCount === 0) return false
          await writeAudit(client, audit)
          return true
        }),
      ),
    breakdown: (id, limit) =>
      run(async (): Promise<PartnerBreakdown> => {
        const [countries, breeds] = await Promise.all([
          pool.query<PartnerBreakdown['countries'][number]>(COUNTRIES, [id, limit]),
          pool.query<PartnerBreakdown['breeds'][number]>(BREEDS, [id, limit]),
        ])
        return { countries: countries.rows, breeds: breeds.rows }
      }),
  }
}
