// The demand map in PostgreSQL (docs/decisions/013-campaigns.md): who waits where, for which breeds,
// confirmed or not (unsubscribed addresses left out); with a breed, only the sign-ups that named it.
import type pg from 'pg'
import type { Segments } from '../../../contract/campaigns.js'
import { metersOf } from '../growth/launch.js'
import type { PostgresGrowth } from '../growth/postgres.js'
import { claimedPerCountry, HAND_OFF_TALLIES, handOffOf } from '../app/shared.js'
import { readTallies } from '../tallies/postgres.js'
import { type NamedBreed, namedBreed, TOP_BREEDS, TOP_INVITERS } from './shared.js'

export async function postgresDemandMap(pool: pg.Pool, growth: PostgresGrowth, breed: string | null): Promise<Segments> {
  // Counts as int: pg reads bigint as text.
  const totals = await pool.query<{ total: number; confirmed: number; unsubscribed: number }>(
    `SELECT count(*)::int AS total, count(confirmed_at)::int AS confirmed, count(unsubscribed_at)::int AS unsubscribed FROM waitlist WHERE ($1::text IS NULL OR EXISTS (SELECT 1 FROM signup_breeds WHERE signup_breeds.signup_id = waitlist.id AND signup_breeds.breed = $1))`,
    [breed],
  )
  const byRoleCountry = await pool.query<Segments['byRoleCountry'][number]>(
    `SELECT role, country, count(confirmed_at)::int AS confirmed, (count(*) - count(confirmed_at))::int AS unconfirmed
     FROM waitlist WHERE unsubscribed_at IS NULL AND ($1::text IS NULL OR EXISTS (SELECT 1 FROM signup_breeds WHERE signup_breeds.signup_id = waitlist.id AND signup_breeds.breed = $1)) GROUP BY role, country ORDER BY count(*) DESC, country, role LIMIT 500`,
    [breed],
  )
  const byCountry = await pool.query<Segments['byCountry'][number]>(
    `SELECT country, count(*) FILTER (WHERE role = 'breeder')::int AS breeders, count(*) FILTER (WHERE role = 'owner')::int AS owners,
       count(*) FILTER (WHERE role = 'club')::int AS clubs, count(*) FILTER (WHERE role = 'enthusiast')::int AS enthusiasts,
       count(*) FILTER (WHERE role IS NULL)::int AS unsaid, count(*)::int AS total,
       count(*) FILTER (WHERE platform = 'ios')::int AS ios, count(*) FILTER (WHERE platform = 'android')::int AS android
     FROM waitlist WHERE unsubscribed_at IS NULL AND ($1::text IS NULL OR EXISTS (SELECT 1 FROM signup_breeds WHERE signup_breeds.signup_id = waitlist.id AND signup_breeds.breed = $1)) GROUP BY country ORDER BY total DESC, country LIMIT 50`,
    [breed],
  )
  // One breed once per person however many spellings they gave it; a name the catalogue missed by its key.
  const topBreeds = await pool.query<NamedBreed>(
    `SELECT named.breed AS id, min(named.name) AS name,
       count(DISTINCT w.id) FILTER (WHERE w.role = 'breeder')::int AS breeders, count(DISTINCT w.id) FILTER (WHERE w.role = 'owner')::int AS owners,
       count(DISTINCT w.id) FILTER (WHERE w.role IS DISTINCT FROM 'breeder' AND w.role IS DISTINCT FROM 'owner')::int AS others,
       count(DISTINCT w.id)::int AS total
     FROM signup_breeds AS named JOIN waitlist AS w ON w.id = named.signup_id
     WHERE w.unsubscribed_at IS NULL AND ($1::text IS NULL OR EXISTS (SELECT 1 FROM signup_breeds WHERE signup_breeds.signup_id = w.id AND signup_breeds.breed = $1))
     GROUP BY named.breed, CASE WHEN named.breed IS NULL THEN coalesce(named.name_key, lower(named.name)) END
     ORDER BY total DESC, name LIMIT ${TOP_BREEDS}`,
    [breed],
  )
  const byPlatform = await pool.query<Segments['byPlatform'][number]>(
    `SELECT platform, count(*)::int AS total, count(confirmed_at)::int AS confirmed FROM waitlist WHERE unsubscribed_at IS NULL AND ($1::text IS NULL OR EXISTS (SELECT 1 FROM signup_breeds WHERE signup_breeds.signup_id = waitlist.id AND signup_breeds.breed = $1))
     GROUP BY platform ORDER BY total DESC, platform NULLS LAST`,
    [breed],
  )
  const total = totals.rows[0] ?? { total: 0, confirmed: 0, unsubscribed: 0 }
  const targets = await growth.targetsOn(pool)
  const handOff = await readTallies(pool, HAND_OFF_TALLIES)
  const claimed = claimedPerCountry(handOff, breed)
  return {
    ...total,
    claimed: handOffOf(handOff, breed).claimed,
    byPlatform: byPlatform.rows,
    byRoleCountry: byRoleCountry.rows,
    byCountry: byCountry.rows.map((row) => ({ ...row, claimed: claimed.get(row.country ?? '') ?? 0 })),
    topBreeds: topBreeds.rows.map(namedBreed),
    meters: metersOf(await growth.countsOn(pool), targets),
    targets,
    topInviters: await growth.topInvitersOn(pool, TOP_INVITERS),
    byLocale: (
      await pool.query<Segments['byLocale'][number]>(
        `SELECT locale, count(*)::int AS total, count(confirmed_at)::int AS confirmed FROM waitlist WHERE unsubscribed_at IS NULL AND ($1::text IS NULL OR EXISTS (SELECT 1 FROM signup_breeds WHERE signup_breeds.signup_id = waitlist.id AND signup_breeds.breed = $1))
         GROUP BY locale ORDER BY total DESC, locale`,
        [breed],
      )
    ).rows,
  }
}
