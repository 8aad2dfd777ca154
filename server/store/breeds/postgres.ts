// A visitor's profile in PostgreSQL, and the breeds it names, the same as breeds/sqlite.ts.
import type pg from 'pg'
import type { Profile } from '../../../contract/visitor.js'
import { inTransaction, type Queryable, type Run, writeAudit } from '../shared/postgres.js'
import { readTallies } from '../tallies/postgres.js'
import type { BreedStore, ProfileToSave } from '../types.js'
import {
  BREED_TARGETS_KEY,
  type BreedRow,
  breedCounts,
  breedTallyKey,
  profileChanged,
  readyPairs,
  storedBreedTargets,
  toProfileBreed,
} from './shared.js'

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

/** The operators' mappings of these name keys (breed_mappings): key to breed id, for those mapped. */
export async function mappingsOn(db: Queryable, keys: readonly string[]): Promise<Map<string, string>> {
  if (keys.length === 0) return new Map()
  const found = await db.query<{ name_key: string; breed: string }>('SELECT name_key, breed FROM breed_mappings WHERE name_key = ANY($1)', [
    keys,
  ])
  return new Map(found.rows.map((row) => [row.name_key, row.breed]))
}

export function saveProfile(pool: pg.Pool, id: number, profile: ProfileToSave): Promise<void> {
  return inTransaction(pool, async (client) => {
    // The sign-up's row first, as a confirmation locks it before its trigger reaches these rows:
    // two saves of one profile wait for each other. The counters lock nothing (db/postgres/014).
    await client.query('SELECT 1 FROM waitlist WHERE id = $1 FOR UPDATE', [id])
    const before = await readProfile(client, id)
    const mapped = await mappingsOn(
      client,
      profile.breeds.filter((entry) => entry.breed === null).map((entry) => entry.key),
    )
    const breeds = profile.breeds.map((entry) => ({ ...entry, breed: entry.breed ?? mapped.get(entry.key) ?? null }))
    await client.query('DELETE FROM signup_breeds WHERE signup_id = $1', [id])
    // The sign-up's country (as the profile now says it) and whether it counts come with each row.
    if (breeds.length > 0) {
      await client.query(
        `INSERT INTO signup_breeds (signup_id, position, name, name_key, breed, side, tests, other_tests, country, counted)
         SELECT $1, entry.position, entry.name, entry.key, entry.breed, entry.side, ARRAY(SELECT jsonb_array_elements_text(entry.tests)), entry.other,
           coalesce($3, ''), waitlist.confirmed_at IS NOT NULL AND waitlist.unsubscribed_at IS NULL
         FROM jsonb_to_recordset($2) AS entry (position int, name text, key text, breed text, side text, tests jsonb, other text), waitlist
         WHERE waitlist.id = $1`,
        [id, JSON.stringify(breeds.map((entry, i) => ({ ...entry, position: i + 1, other: entry.otherTests }))), profile.country],
      )
    }
    // After the rows, so that a profile event carries them (breeds/sqlite.ts says why).
    await client.query(
      `UPDATE waitlist SET role = $2, country = $3, kennel_club = $4, litters = $5,
         profile_changed_at = CASE WHEN $6 THEN clock_timestamp() ELSE profile_changed_at END
       WHERE id = $1`,
      [id, profile.role, profile.country, profile.club, profile.litters, before !== undefined && profileChanged(before.breeds, breeds)],
    )
  })
}

export function createPostgresBreeds(
  pool: pg.Pool,
  run: Run,
): BreedStore & {
  readyOn(db: Queryable): Promise<string[]>
  mappingsOn(db: Queryable, keys: readonly string[]): Promise<Map<string, string>>
} {
  const countsOn = async (db: Queryable) => breedCounts(await readTallies(db, ['breed']))
  const targetsOn = async (db: Queryable) => {
    const result = await db.query<{ value: unknown }>('SELECT value FROM settings WHERE key = $1', [BREED_TARGETS_KEY])
    return storedBreedTargets(result.rows[0]?.value)
  }
  return {
    counts: () => run(() => countsOn(pool)),
    // One statement: one connection of the pool and one snapshot for all of a visitor's breeds.
    countsIn: (country, breeds) =>
      run(async () =>
        breedCounts(
          await readTallies(
            pool,
            ['breed'],
            [...new Set(breeds)].map((breed) => breedTallyKey(breed, country)),
          ),
        ),
      ),
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
          // Every row of the key, and only those (breeds/sqlite.ts says why); a corrected mapping moves them again.
          const rows = await client.query<{ signup_id: string }>(
            'UPDATE signup_breeds SET breed = $2 WHERE name_key = $1 AND breed IS DISTINCT FROM $2 RETURNING signup_id::text',
            [key, breed],
          )
          const signups = [...new Set(rows.rows.map((row) => row.signup_id))]
          if (signups.length > 0)
            await client.query('UPDATE waitlist SET profile_changed_at = clock_timestamp() WHERE id = ANY($1::bigint[])', [signups])
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
          await pool.query(
            `UPDATE signup_breeds SET name_key = entry.key,
               breed = coalesce(entry.breed, (SELECT breed FROM breed_mappings WHERE name_key = entry.key))
             FROM jsonb_to_recordset($1) AS entry (signup_id bigint, position int, key text, breed text)
             WHERE signup_breeds.signup_id = entry.signup_id AND signup_breeds.position = entry.position
               AND signup_breeds.name_key IS NULL`,
            [JSON.stringify(entries)],
          )
          total += entries.length
        }
      }),
    readyOn: async (db) => readyPairs(await countsOn(db), await targetsOn(db)),
    mappingsOn,
  }
}
