// The demand map in SQLite (docs/decisions/013-campaigns.md): who waits where, for which breeds,
// confirmed or not (unsubscribed addresses left out); with a breed, only the sign-ups that named it.
import type Database from 'better-sqlite3'
import type { Segments } from '../../../contract/campaigns.js'
import { metersOf } from '../growth/launch.js'
import type { SqliteGrowth } from '../growth/sqlite.js'
import { claimedPerCountry, HAND_OFF_TALLIES, handOffOf } from '../app/shared.js'
import type { SqliteTallies } from '../tallies/sqlite.js'
import { type NamedBreed, namedBreed, TOP_BREEDS, TOP_INVITERS } from './shared.js'

export function sqliteDemandMap(db: Database.Database, growth: SqliteGrowth, tallies: SqliteTallies, breed: string | null): Segments {
  const totals = db
    .prepare(
      `SELECT count(*) AS total, count(confirmed_at) AS confirmed, count(unsubscribed_at) AS unsubscribed FROM waitlist WHERE (@breed IS NULL OR EXISTS (SELECT 1 FROM signup_breeds WHERE signup_breeds.signup_id = waitlist.id AND signup_breeds.breed = @breed))`,
    )
    .get({ breed }) as {
    total: number
    confirmed: number
    unsubscribed: number
  }
  const byRoleCountry = db
    .prepare(
      `SELECT role, country, count(confirmed_at) AS confirmed, count(*) - count(confirmed_at) AS unconfirmed
       FROM waitlist WHERE unsubscribed_at IS NULL AND (@breed IS NULL OR EXISTS (SELECT 1 FROM signup_breeds WHERE signup_breeds.signup_id = waitlist.id AND signup_breeds.breed = @breed)) GROUP BY role, country ORDER BY count(*) DESC, country, role LIMIT 500`,
    )
    .all({ breed }) as Segments['byRoleCountry']
  const byCountry = db
    .prepare(
      `SELECT country, sum(role = 'breeder') AS breeders, sum(role = 'owner') AS owners, sum(role = 'club') AS clubs,
         sum(role = 'enthusiast') AS enthusiasts, sum(role IS NULL) AS unsaid, count(*) AS total,
         sum(platform IS 'ios') AS ios, sum(platform IS 'android') AS android
       FROM waitlist WHERE unsubscribed_at IS NULL AND (@breed IS NULL OR EXISTS (SELECT 1 FROM signup_breeds WHERE signup_breeds.signup_id = waitlist.id AND signup_breeds.breed = @breed)) GROUP BY country ORDER BY total DESC, country LIMIT 50`,
    )
    .all({ breed }) as Omit<Segments['byCountry'][number], 'claimed'>[]
  // One breed once per person however many spellings they gave it; a name the catalogue missed by its key.
  const topBreeds = db
    .prepare(
      `SELECT named.breed AS id, min(named.name) AS name,
         count(DISTINCT CASE WHEN w.role = 'breeder' THEN w.id END) AS breeders, count(DISTINCT CASE WHEN w.role = 'owner' THEN w.id END) AS owners,
         count(DISTINCT CASE WHEN w.role IS NOT 'breeder' AND w.role IS NOT 'owner' THEN w.id END) AS others, count(DISTINCT w.id) AS total
       FROM signup_breeds AS named JOIN waitlist AS w ON w.id = named.signup_id
       WHERE w.unsubscribed_at IS NULL AND (@breed IS NULL OR EXISTS (SELECT 1 FROM signup_breeds WHERE signup_breeds.signup_id = w.id AND signup_breeds.breed = @breed))
       GROUP BY named.breed, CASE WHEN named.breed IS NULL THEN coalesce(named.name_key, lower(named.name)) END
       ORDER BY total DESC, name LIMIT ${TOP_BREEDS}`,
    )
    .all({ breed }) as NamedBreed[]
  const byPlatform = db
    .prepare(
      `SELECT platform, count(*) AS total, count(confirmed_at) AS confirmed FROM waitlist WHERE unsubscribed_at IS NULL AND (@breed IS NULL OR EXISTS (SELECT 1 FROM signup_breeds WHERE signup_breeds.signup_id = waitlist.id AND signup_breeds.breed = @breed))
       GROUP BY platform ORDER BY total DESC, platform IS NULL, platform`,
    )
    .all({ breed }) as Segments['byPlatform']
  const handOff = tallies.readNow(HAND_OFF_TALLIES)
  const claimed = claimedPerCountry(handOff, breed)
  const targets = growth.targetsNow()
  const byLocale = db
    .prepare(
      `SELECT locale, count(*) AS total, count(confirmed_at) AS confirmed FROM waitlist WHERE unsubscribed_at IS NULL AND (@breed IS NULL OR EXISTS (SELECT 1 FROM signup_breeds WHERE signup_breeds.signup_id = waitlist.id AND signup_breeds.breed = @breed))
       GROUP BY locale ORDER BY total DESC, locale`,
    )
    .all({ breed }) as Segments['byLocale']
  return {
    ...totals,
    claimed: handOffOf(handOff, breed).claimed,
    byPlatform,
    byLocale,
    byRoleCountry,
    byCountry: byCountry.map((row) => ({ ...row, claimed: claimed.get(row.country ?? '') ?? 0 })),
    topBreeds: topBreeds.map(namedBreed),
    meters: metersOf(growth.countsNow(), targets),
    targets,
    topInviters: growth.topInvitersNow(TOP_INVITERS),
  }
}
