// A visitor's profile in SQLite, and the breeds it names (docs/breeds.md): the profile read and saved
// whole, the breed × country counts, the breed targets, and the names the catalogue missed.
import type Database from 'better-sqlite3'
import type { CountryCode } from '../../../contract/countries.js'
import type { KennelClub, Litters, Profile, Role } from '../../../contract/visitor.js'
import { BREED_TARGETS_KEY, type BreedRow, breedSides, onceEach, readyPairs, storedBreedTargets, toProfileBreed } from './shared.js'
import { type Run, auditWriter, now } from '../shared/sqlite.js'
import type { BreedCount, BreedStore, ProfileToSave } from '../types.js'

/** The JSON array of a profile's ids and sides, from its rows, in their order. */
const SIDES_OF = `(SELECT json_group_array(json_object('breed', breed, 'side', side))
  FROM (SELECT breed, side FROM signup_breeds WHERE signup_id = waitlist.id ORDER BY position))`

export function createSqliteProfiles(db: Database.Database) {
  const head = db.prepare('SELECT role, country, kennel_club, litters FROM waitlist WHERE id = ?')
  const rows = db.prepare('SELECT name, breed, side, tests, other_tests FROM signup_breeds WHERE signup_id = ? ORDER BY position')
  const mapped = db.prepare('SELECT breed FROM breed_mappings WHERE name_key = ?').pluck()
  const clear = db.prepare('DELETE FROM signup_breeds WHERE signup_id = ?')
  // The sign-up's country and whether it counts come with each row (the meters' triggers read them there).
  const insert = db.prepare(
    `INSERT INTO signup_breeds (signup_id, position, name, name_key, breed, side, tests, other_tests, country, counted)
     SELECT @id, @position, @name, @key, @breed, @side, @tests, @otherTests, coalesce(country, ''),
       confirmed_at IS NOT NULL AND unsubscribed_at IS NULL
     FROM waitlist WHERE id = @id`,
  )
  const update = db.prepare(
    `UPDATE waitlist SET role = @role, breeds = @breeds, country = @country, kennel_club = @club, litters = @litters, breed_sides = @sides
     WHERE id = @id`,
  )
  const save = db.transaction((id: number, profile: ProfileToSave) => {
    const breeds = onceEach(
      profile.breeds.map((entry) => ({
        ...entry,
        breed: entry.breed ?? (mapped.get(entry.key) as string | undefined) ?? null,
      })),
    )
    clear.run(id)
    update.run({
      id,
      role: profile.role,
      breeds: JSON.stringify(breeds.map((entry) => entry.name)),
      country: profile.country,
      club: profile.club,
      litters: profile.litters,
      sides: JSON.stringify(breedSides(breeds)),
    })
    breeds.forEach((entry, i) =>
      insert.run({ id, position: i + 1, ...entry, tests: JSON.stringify(entry.tests), otherTests: entry.otherTests }),
    )
  })
  return {
    /** The whole profile of a sign-up (undefined when there is none). */
    read(id: number): Profile | undefined {
      const row = head.get(id) as
        { role: Role | null; country: CountryCode | null; kennel_club: KennelClub | null; litters: Litters | null } | undefined
      if (!row) return undefined
      const breeds = (rows.all(id) as (Omit<BreedRow, 'tests'> & { tests: string })[]).map((breed) =>
        toProfileBreed({ ...breed, tests: JSON.parse(breed.tests) as BreedRow['tests'] }),
      )
      return { role: row.role, breeds, country: row.country, club: row.kennel_club, litters: row.litters }
    },
    save: (id: number, profile: ProfileToSave) => save.immediate(id, profile),
  }
}

/** Confirmed, subscribed profiles naming a known breed, per breed and country: kept by the triggers of db/sqlite/010. */
const COUNTS = `SELECT breed, nullif(country, '') AS country, studs, dams, seekers, profiles FROM breed_counts WHERE profiles > 0`

export function createSqliteBreeds(db: Database.Database, run: Run): BreedStore & { readyNow(): string[] } {
  const writeAudit = auditWriter(db)
  const counts = db.prepare(COUNTS)
  const setting = db.prepare('SELECT value FROM settings WHERE key = ?').pluck()
  const putSetting = db.prepare(
    `INSERT INTO settings (key, value, updated_at) VALUES (@key, @value, @now)
     ON CONFLICT (key) DO UPDATE SET value = excluded.value, updated_at = excluded.updated_at`,
  )
  const unmatched = db.prepare(
    `SELECT min(name) AS name, count(*) AS count FROM signup_breeds WHERE breed IS NULL AND name_key IS NOT NULL
     GROUP BY name_key ORDER BY count DESC, name_key LIMIT ?`,
  )
  const putMapping = db.prepare(
    `INSERT INTO breed_mappings (name_key, breed) VALUES (@key, @breed) ON CONFLICT (name_key) DO UPDATE SET breed = excluded.breed`,
  )
  // Every row of the key (none has a catalogue breed: the catalogue does not know the name), a
  // wrong mapping corrected too.
  const mapRows = db
    .prepare('UPDATE signup_breeds SET breed = @breed WHERE name_key = @key AND breed IS NOT @breed RETURNING signup_id')
    .pluck()
  // A breed a sign-up names twice (two spellings mapped to one breed) counts once: the later row keeps its name only.
  const onceEachRow = db.prepare(
    `UPDATE signup_breeds SET breed = NULL WHERE signup_id = ? AND breed IS NOT NULL
     AND EXISTS (SELECT 1 FROM signup_breeds AS earlier WHERE earlier.signup_id = signup_breeds.signup_id
       AND earlier.breed = signup_breeds.breed AND earlier.position < signup_breeds.position)`,
  )
  const resides = db.prepare(`UPDATE waitlist SET breed_sides = ${SIDES_OF} WHERE id = ?`)
  const copied = db.prepare('SELECT signup_id, position, name FROM signup_breeds WHERE name_key IS NULL LIMIT 1000')
  const readOne = db.prepare(
    `UPDATE signup_breeds SET name_key = @key, breed = coalesce(@breed, (SELECT breed FROM breed_mappings WHERE name_key = @key))
     WHERE signup_id = @signup_id AND position = @position`,
  )
  const countsNow = () => counts.all() as BreedCount[]
  const targetsNow = () => storedBreedTargets(setting.get(BREED_TARGETS_KEY))
  return {
    counts: () => run(countsNow),
    targets: () => run(targetsNow),
    setTargets: (targets, audit) =>
      run(() =>
        db.transaction(() => {
          putSetting.run({ key: BREED_TARGETS_KEY, value: JSON.stringify(targets), now: now() })
          if (audit) writeAudit(audit)
        })(),
      ),
    unmatched: (limit) => run(() => unmatched.all(limit) as { name: string; count: number }[]),
    map: (key, breed, audit) =>
      run(() =>
        db
          .transaction(() => {
            putMapping.run({ key, breed })
            const signups = [...new Set(mapRows.all({ key, breed }) as number[])]
            for (const id of signups) {
              onceEachRow.run(id)
              resides.run(id)
            }
            if (audit) writeAudit({ ...audit, detail: { ...audit.detail, signups: signups.length } })
            return signups.length
          })
          .immediate(),
      ),
    readCopied: (read) =>
      run(() => {
        let total = 0
        for (;;) {
          const batch = copied.all() as { signup_id: number; position: number; name: string }[]
          if (batch.length === 0) return total
          db.transaction(() => {
            const touched = new Set<number>()
            for (const row of batch) {
              readOne.run({ ...row, ...read(row.name) })
              touched.add(row.signup_id)
            }
            for (const id of touched) {
              onceEachRow.run(id)
              resides.run(id)
            }
          }).immediate()
          total += batch.length
        }
      }),
    readyNow: () => readyPairs(countsNow(), targetsNow()),
  }
}
