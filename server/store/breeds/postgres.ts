// A visitor's profile in PostgreSQL, and the breeds it names (docs/breeds.md): the profile read and
// saved whole, the breed × country counts, the breed targets, and the names the catalogue missed.
import type pg from 'pg'
import type { Profile } from '../../../contract/visitor.js'
import { BREED_TARGETS_KEY, type BreedRow, breedSides, onceEach, readyPairs, storedBreedTargets, toProfileBreed } from './shared.js'
import { inTransaction, type Queryable, type Run } from '../shared/postgres.js'
import { writeAudit } from '../shared/postgres.js'
import type { BreedCount, BreedStore, ProfileToSave } from '../types.js'

/** The ids and sides of a sign-up's breeds, from its rows, in their order. */
const SIDES_OF = `(SELECT coalesce(jsonb_agg(jsonb_build_object('breed', breed, 'side', side) ORDER BY position), '[]')
  FROM signup_breeds WHERE signup_id = waitlist.id)`

/** A breed a sign-up names twice (two spellings mapped to one breed) counts once: the later row keeps its name only. */
const ONCE_EACH = `UPDATE signup_breeds SET breed = NULL WHERE signup_id = ANY($1::bigint[]) AND breed IS NOT NULL
  AND EXISTS (SELECT 1 FROM signup_breeds AS earlier WHERE earlier.signup_id = signup_breeds.signup_id
    AND earlier.breed = signup_breeds.breed AND earlier.position < signup_breeds.position)`

export async function readProfile(db: Queryable, id: number): Promise<Profile | undefined> {
  const head = await db.query<Omit<Profile, 'breeds' | 'club'> & { kennel_club: Profile['club'] }>(
    'SELECT role, country, kennel_club, litters FROM waitlist WHERE id = $1',
    [id],
  )
  const row = head.rows[0]
  if (!row) return undefined
  const rows = await db.query<BreedRow>(
    'SELECT name, breed, side, tests, other_tests FROM signup_breeds WHERE signup_id = $1 ORDER BY position',
    [id],
  )
  return { role: row.role, breeds: rows.rows.map(toProfileBreed), country: row.country, club: row.kennel_club, litters: row.litters }
}

export function saveProfile(pool: pg.Pool, id: number, profile: ProfileToSave): Promise<void> {
  return inTransaction(pool, async (client) => {
    // The sign-up's row first, as a confirmation locks it before its trigger reaches these rows:
    // the same order, so the two never deadlock, and two saves of one profile wait for each other.
    await client.query('SELECT 1 FROM waitlist WHERE id = $1 FOR UPDATE', [id])
    const unknown = profile.breeds.filter((entry) => entry.breed === null).map((entry) => entry.key)
    const mapped = new Map<string, string>()
    if (unknown.length > 0) {
      const found = await client.query<{ name_key: string; breed: string }>(
        'SELECT name_key, breed FROM breed_mappings WHERE name_key = ANY($1)',
        [unknown],
      )
      for (const { name_key, breed } of found.rows) mapped.set(name_key, breed)
    }
    const breeds = onceEach(profile.breeds.map((entry) => ({ ...entry, breed: entry.breed ?? mapped.get(entry.key) ?? null })))
    await client.query('DELETE FROM signup_breeds WHERE signup_id = $1', [id])
    await client.query(
      'UPDATE waitlist SET role = $2, breeds = $3, country = $4, kennel_club = $5, litters = $6, breed_sides = $7 WHERE id = $1',
      [
        id,
        profile.role,
        breeds.map((entry) => entry.name),
        profile.country,
        profile.club,
        profile.litters,
        JSON.stringify(breedSides(breeds)),
      ],
    )
    // The sign-up's country and whether it counts come with each row (the meters' triggers read them there).
    if (breeds.length > 0) {
      await client.query(
        `INSERT INTO signup_breeds (signup_id, position, name, name_key, breed, side, tests, other_tests, country, counted)
         SELECT $1, entry.position, entry.name, entry.key, entry.breed, entry.side, ARRAY(SELECT jsonb_array_elements_text(entry.tests)), entry.other,
           coalesce(waitlist.country, ''), waitlist.confirmed_at IS NOT NULL AND waitlist.unsubscribed_at IS NULL
         FROM jsonb_to_recordset($2) AS entry (position int, name text, key text, breed text, side text, tests jsonb, other text), waitlist
         WHERE waitlist.id = $1`,
        [id, JSON.stringify(breeds.map((entry, i) => ({ ...entry, position: i + 1, other: entry.otherTests })))],
      )
    }
  })
}

/** Confirmed, subscribed profiles naming a known breed, per breed and country: kept by the triggers of db/postgres/010. */
const COUNTS = `SELECT breed, nullif(country, '') AS country, studs, dams, seekers, profiles FROM breed_counts WHERE profiles > 0`

export function createPostgresBreeds(pool: pg.Pool, run: Run): BreedStore & { readyOn(db: Queryable): Promise<string[]> } {
  const countsOn = async (db: Queryable) => (await db.query<BreedCount>(COUNTS)).rows
  const targetsOn = async (db: Queryable) => {
    const result = await db.query<{ value: unknown }>('SELECT value FROM settings WHERE key = $1', [BREED_TARGETS_KEY])
    return storedBreedTargets(result.rows[0]?.value)
  }
  return {
    counts: () => run(() => countsOn(pool)),
    targets: () => run(() => targetsOn(pool)),
    setTargets: (targets, audit) =>
      run(() =>
        inTransaction(pool, async (client) => {
          await client.query(
            `INSERT INTO settings (key, value, updated_at) VALUES ($1, $2, now())
             ON CONFLICT (key) DO UPDATE SET value = excluded.value, updated_at = excluded.updated_at`,
            [BREED_TARGETS_KEY, JSON.stringify(targets)],
          )
          if (audit) await writeAudit(client, audit)
        }),
      ),
    unmatched: (limit) =>
      run(async () => {
        const result = await pool.query<{ name: string; count: number }>(
          `SELECT min(name) AS name, count(*)::int AS count FROM signup_breeds WHERE breed IS NULL AND name_key IS NOT NULL
           GROUP BY name_key ORDER BY count DESC, name_key LIMIT $1`,
          [limit],
        )
        return result.rows
      }),
    map: (key, breed, audit) =>
      run(() =>
        inTransaction(pool, async (client) => {
          await client.query(
            'INSERT INTO breed_mappings (name_key, breed) VALUES ($1, $2) ON CONFLICT (name_key) DO UPDATE SET breed = excluded.breed',
            [key, breed],
          )
          const rows = await client.query<{ signup_id: string }>(
            // Every row of the key (none has a catalogue breed), a wrong mapping corrected too.
            'UPDATE signup_breeds SET breed = $2 WHERE name_key = $1 AND breed IS DISTINCT FROM $2 RETURNING signup_id::text',
            [key, breed],
          )
          const signups = [...new Set(rows.rows.map((row) => row.signup_id))]
          if (signups.length > 0) {
            await client.query(ONCE_EACH, [signups])
            await client.query(`UPDATE waitlist SET breed_sides = ${SIDES_OF} WHERE id = ANY($1::bigint[])`, [signups])
          }
          if (audit) await writeAudit(client, { ...audit, detail: { ...audit.detail, signups: signups.length } })
          return signups.length
        }),
      ),
    readCopied: (read) =>
      run(async () => {
        let total = 0
        for (;;) {
          const batch = await pool.query<{ signup_id: string; position: number; name: string }>(
            'SELECT signup_id::text, position, name FROM signup_breeds WHERE name_key IS NULL LIMIT 1000',
          )
          if (batch.rows.length === 0) return total
          const entries = batch.rows.map((row) => ({ ...row, ...read(row.name) }))
          await inTransaction(pool, async (client) => {
            await client.query(
              `UPDATE signup_breeds SET name_key = entry.key,
                 breed = coalesce(entry.breed, (SELECT breed FROM breed_mappings WHERE name_key = entry.key))
               FROM jsonb_to_recordset($1) AS entry (signup_id bigint, position int, key text, breed text)
               WHERE signup_breeds.signup_id = entry.signup_id AND signup_breeds.position = entry.position
                 AND signup_breeds.name_key IS NULL`,
              [JSON.stringify(entries)],
            )
            const ids = [...new Set(entries.map((entry) => entry.signup_id))]
            await client.query(ONCE_EACH, [ids])
            await client.query(`UPDATE waitlist SET breed_sides = ${SIDES_OF} WHERE id = ANY($1::bigint[])`, [ids])
          })
          total += entries.length
        }
      }),
    readyOn: async (db) => readyPairs(await countsOn(db), await targetsOn(db)),
  }
}
