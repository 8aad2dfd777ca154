// The demand map in SQLite (docs/decisions/013-campaigns.md): who waits where, for which breeds,
// confirmed or not (unsubscribed addresses left out); with a breed, only the sign-ups that named it.
// Everyone's figures are the people tallies; what only the rows can answer is read by `read`, the
// reader thread of shared/sqlite-reader.ts, so a million rows never hold the server's thread.
import type { Segments } from '../../../contract/campaigns.js'
import { TOP_INVITERS_SQL } from '../growth/sqlite.js'
import type { SqliteRead } from '../shared/sqlite-reader.js'
import { type CountedDemand, type NamedBreed, namedBreed, type PeopleFigures, TOP_BREEDS, TOP_INVITERS } from './shared.js'

/** One breed's people (all of them with none): a sign-up that named it in any spelling. */
const OF_BREED = `waitlist.id IN (SELECT signup_id FROM signup_breeds WHERE breed = @breed)`
/** Those who joined themselves, or confirmed since an import brought them: an imported person who never confirmed is counted apart. */
const JOINED = `(waitlist.import_id IS NULL OR waitlist.confirmed_at IS NOT NULL)`
const IMPORTED = `waitlist.import_id IS NOT NULL AND waitlist.confirmed_at IS NULL AND waitlist.unsubscribed_at IS NULL`

/** What the rows answer; for a breed, its people's figures too. */
export async function sqliteCountedDemand(read: SqliteRead, breed: string | null): Promise<CountedDemand> {
  const only = breed === null ? '1' : OF_BREED
  // One breed once per person however many spellings they gave it; a name the catalogue missed by its key.
  const topBreeds = read<NamedBreed>(
    `SELECT named.breed AS id, min(named.name) AS name,
       count(DISTINCT CASE WHEN waitlist.role = 'breeder' THEN waitlist.id END) AS breeders, count(DISTINCT CASE WHEN waitlist.role = 'owner' THEN waitlist.id END) AS owners,
       count(DISTINCT CASE WHEN waitlist.role IS NOT 'breeder' AND waitlist.role IS NOT 'owner' THEN waitlist.id END) AS others, count(DISTINCT waitlist.id) AS total
     FROM signup_breeds AS named JOIN waitlist ON waitlist.id = named.signup_id
     WHERE waitlist.unsubscribed_at IS NULL AND ${JOINED} AND ${only}
     GROUP BY named.breed, CASE WHEN named.breed IS NULL THEN coalesce(named.name_key, lower(named.name)) END
     ORDER BY total DESC, name LIMIT ${TOP_BREEDS}`,
    { breed },
  )
  const topInviters = read<Segments['topInviters'][number]>(TOP_INVITERS_SQL, [TOP_INVITERS])
  const people = breed === null ? undefined : await peopleOfBreed(read, breed)
  return { topBreeds: (await topBreeds).map(namedBreed), topInviters: await topInviters, people }
}

async function peopleOfBreed(read: SqliteRead, breed: string): Promise<PeopleFigures> {
  const [totals] = await read<{ total: number; confirmed: number; unsubscribed: number }>(
    `SELECT count(*) AS total, count(confirmed_at) AS confirmed, count(unsubscribed_at) AS unsubscribed FROM waitlist WHERE ${OF_BREED}`,
    { breed },
  )
  const byRoleCountry = read<Segments['byRoleCountry'][number]>(
    `SELECT role, country, count(confirmed_at) AS confirmed, count(*) - count(confirmed_at) AS unconfirmed
     FROM waitlist WHERE unsubscribed_at IS NULL AND ${JOINED} AND ${OF_BREED} GROUP BY role, country ORDER BY count(*) DESC, country, role LIMIT 500`,
    { breed },
  )
  const byCountry = read<PeopleFigures['byCountry'][number]>(
    `SELECT country, sum(role = 'breeder') AS breeders, sum(role = 'owner') AS owners, sum(role = 'club') AS clubs,
       sum(role = 'enthusiast') AS enthusiasts, sum(role IS NULL) AS unsaid, count(*) AS total,
       sum(platform IS 'ios') AS ios, sum(platform IS 'android') AS android
     FROM waitlist WHERE unsubscribed_at IS NULL AND ${JOINED} AND ${OF_BREED} GROUP BY country ORDER BY total DESC, country LIMIT 50`,
    { breed },
  )
  const byPlatform = read<Segments['byPlatform'][number]>(
    `SELECT platform, count(*) AS total, count(confirmed_at) AS confirmed FROM waitlist WHERE unsubscribed_at IS NULL AND ${JOINED} AND ${OF_BREED}
     GROUP BY platform ORDER BY total DESC, platform IS NULL, platform`,
    { breed },
  )
  const byLocale = read<Segments['byLocale'][number]>(
    `SELECT locale, count(*) AS total, count(confirmed_at) AS confirmed FROM waitlist WHERE unsubscribed_at IS NULL AND ${JOINED} AND ${OF_BREED}
     GROUP BY locale ORDER BY total DESC, locale`,
    { breed },
  )
  const imported = read<{ country: string | null; total: number }>(
    `SELECT country, count(*) AS total FROM waitlist WHERE ${IMPORTED} AND ${OF_BREED} GROUP BY country ORDER BY total DESC, country LIMIT 50`,
    { breed },
  )
  const [importedTotal] = await read<{ total: number }>(`SELECT count(*) AS total FROM waitlist WHERE ${IMPORTED} AND ${OF_BREED}`, {
    breed,
  })
  return {
    ...(totals ?? { total: 0, confirmed: 0, unsubscribed: 0 }),
    imported: { total: importedTotal?.total ?? 0, byCountry: await imported },
    byRoleCountry: await byRoleCountry,
    byCountry: await byCountry,
    byPlatform: await byPlatform,
    byLocale: await byLocale,
  }
}
