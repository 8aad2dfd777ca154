// The demand map in SQLite (docs/decisions/013-campaigns.md): who waits where, for which breeds,
// confirmed or not (unsubscribed addresses left out); with a breed, only the sign-ups that named it.
import type Database from 'better-sqlite3'
import type { Segments } from '../../../contract/campaigns.js'
import { metersOf } from '../growth/launch.js'
import type { SqliteGrowth } from '../growth/sqlite.js'

const TOP_INVITERS = 10

export function sqliteDemandMap(db: Database.Database, growth: SqliteGrowth, breed: string | null): Segments {
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
         sum(role = 'enthusiast') AS enthusiasts, sum(role IS NULL) AS unsaid, count(*) AS total
       FROM waitlist WHERE unsubscribed_at IS NULL AND (@breed IS NULL OR EXISTS (SELECT 1 FROM signup_breeds WHERE signup_breeds.signup_id = waitlist.id AND signup_breeds.breed = @breed)) GROUP BY country ORDER BY total DESC, country LIMIT 50`,
    )
    .all({ breed }) as Segments['byCountry']
  const topBreeds = db
    .prepare(
      `SELECT min(named.value) AS breed, sum(role = 'breeder') AS breeders, sum(role = 'owner') AS owners,
         sum(role IS NOT 'breeder' AND role IS NOT 'owner') AS others, count(*) AS total
       FROM waitlist, json_each(waitlist.breeds) AS named WHERE unsubscribed_at IS NULL AND (@breed IS NULL OR EXISTS (SELECT 1 FROM signup_breeds WHERE signup_breeds.signup_id = waitlist.id AND signup_breeds.breed = @breed))
       GROUP BY lower(named.value) ORDER BY total DESC, breed LIMIT 20`,
    )
    .all({ breed }) as Segments['topBreeds']
  const targets = growth.targetsNow()
  const byLocale = db
    .prepare(
      `SELECT locale, count(*) AS total, count(confirmed_at) AS confirmed FROM waitlist WHERE unsubscribed_at IS NULL AND (@breed IS NULL OR EXISTS (SELECT 1 FROM signup_breeds WHERE signup_breeds.signup_id = waitlist.id AND signup_breeds.breed = @breed))
       GROUP BY locale ORDER BY total DESC, locale`,
    )
    .all({ breed }) as Segments['byLocale']
  return {
    ...totals,
    byLocale,
    byRoleCountry,
    byCountry,
    topBreeds,
    meters: metersOf(growth.countsNow(), targets),
    targets,
    topInviters: growth.topInvitersNow(TOP_INVITERS),
  }
}
