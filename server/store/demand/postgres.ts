// The demand map in PostgreSQL (docs/decisions/013-campaigns.md), as demand/sqlite.ts: everyone's
// figures are the people tallies; the most named breeds, the top inviters and every figure of one
// breed's people are counted from the rows.
import type { Queryable } from '../shared/postgres.js'
import type { Segments } from '../../../contract/campaigns.js'
import type { PostgresGrowth } from '../growth/postgres.js'
import { type CountedDemand, type NamedBreed, namedBreed, type PeopleFigures, TOP_BREEDS, TOP_INVITERS } from './shared.js'

/** One breed's people: a sign-up that named it in any spelling. */
const OF_BREED = `waitlist.id IN (SELECT signup_id FROM signup_breeds WHERE breed = $1)`
/** Those who joined themselves, or confirmed since an import brought them (demand/sqlite.ts). */
const JOINED = `(waitlist.import_id IS NULL OR waitlist.confirmed_at IS NOT NULL)`
const IMPORTED = `waitlist.import_id IS NOT NULL AND waitlist.confirmed_at IS NULL AND waitlist.unsubscribed_at IS NULL`

/** What the rows answer; for a breed, its people's figures too. Counts as int: pg reads bigint as text. */
export async function postgresCountedDemand(db: Queryable, growth: PostgresGrowth, breed: string | null): Promise<CountedDemand> {
  const only = breed === null ? '$1::text IS NULL' : OF_BREED
  // One breed once per person however many spellings they gave it; a name the catalogue missed by its key.
  const topBreeds = await db.query<NamedBreed>(
    `SELECT named.breed AS id, min(named.name) AS name,
       count(DISTINCT waitlist.id) FILTER (WHERE waitlist.role = 'breeder')::int AS breeders, count(DISTINCT waitlist.id) FILTER (WHERE waitlist.role = 'owner')::int AS owners,
       count(DISTINCT waitlist.id) FILTER (WHERE waitlist.role IS DISTINCT FROM 'breeder' AND waitlist.role IS DISTINCT FROM 'owner')::int AS others,
       count(DISTINCT waitlist.id)::int AS total
     FROM signup_breeds AS named JOIN waitlist ON waitlist.id = named.signup_id
     WHERE waitlist.unsubscribed_at IS NULL AND ${JOINED} AND ${only}
     GROUP BY named.breed, CASE WHEN named.breed IS NULL THEN coalesce(named.name_key, lower(named.name)) END
     ORDER BY total DESC, name LIMIT ${TOP_BREEDS}`,
    [breed],
  )
  const topInviters = await growth.topInvitersOn(db, TOP_INVITERS)
  const people = breed === null ? undefined : await peopleOfBreed(db, breed)
  return { topBreeds: topBreeds.rows.map(namedBreed), topInviters, people }
}

async function peopleOfBreed(db: Queryable, breed: string): Promise<PeopleFigures> {
  // One at a time: one connection.
  const totals = await db.query<{ total: number; confirmed: number; unsubscribed: number }>(
    `SELECT count(*)::int AS total, count(confirmed_at)::int AS confirmed, count(unsubscribed_at)::int AS unsubscribed FROM waitlist WHERE ${OF_BREED}`,
    [breed],
  )
  const byRoleCountry = await db.query<Segments['byRoleCountry'][number]>(
    `SELECT role, country, count(confirmed_at)::int AS confirmed, (count(*) - count(confirmed_at))::int AS unconfirmed
     FROM waitlist WHERE unsubscribed_at IS NULL AND ${JOINED} AND ${OF_BREED} GROUP BY role, country ORDER BY count(*) DESC, country, role LIMIT 500`,
    [breed],
  )
  const byCountry = await db.query<PeopleFigures['byCountry'][number]>(
    `SELECT country, count(*) FILTER (WHERE role = 'breeder')::int AS breeders, count(*) FILTER (WHERE role = 'owner')::int AS owners,
       count(*) FILTER (WHERE role = 'club')::int AS clubs, count(*) FILTER (WHERE role = 'enthusiast')::int AS enthusiasts,
       count(*) FILTER (WHERE role IS NULL)::int AS unsaid, count(*)::int AS total,
       count(*) FILTER (WHERE platform = 'ios')::int AS ios, count(*) FILTER (WHERE platform = 'android')::int AS android
     FROM waitlist WHERE unsubscribed_at IS NULL AND ${JOINED} AND ${OF_BREED} GROUP BY country ORDER BY total DESC, country LIMIT 50`,
    [breed],
  )
  const byPlatform = await db.query<Segments['byPlatform'][number]>(
    `SELECT platform, count(*)::int AS total, count(confirmed_at)::int AS confirmed FROM waitlist WHERE unsubscribed_at IS NULL AND ${JOINED} AND ${OF_BREED}
     GROUP BY platform ORDER BY total DESC, platform NULLS LAST`,
    [breed],
  )
  const byLocale = await db.query<Segments['byLocale'][number]>(
    `SELECT locale, count(*)::int AS total, count(confirmed_at)::int AS confirmed FROM waitlist WHERE unsubscribed_at IS NULL AND ${JOINED} AND ${OF_BREED}
     GROUP BY locale ORDER BY total DESC, locale`,
    [breed],
  )
  const imported = await db.query<{ country: string | null; total: number }>(
    `SELECT country, count(*)::int AS total FROM waitlist WHERE ${IMPORTED} AND ${OF_BREED} GROUP BY country ORDER BY total DESC, country LIMIT 50`,
    [breed],
  )
  const importedTotal = await db.query<{ total: number }>(`SELECT count(*)::int AS total FROM waitlist WHERE ${IMPORTED} AND ${OF_BREED}`, [
    breed,
  ])
  return {
    ...(totals.rows[0] ?? { total: 0, confirmed: 0, unsubscribed: 0 }),
    imported: { total: importedTotal.rows[0]?.total ?? 0, byCountry: imported.rows },
    byRoleCountry: byRoleCountry.rows,
    byCountry: byCountry.rows,
    byPlatform: byPlatform.rows,
    byLocale: byLocale.rows,
  }
}
