// A visitor's profile in SQLite, and the breeds it names (docs/breeds.md): the profile read and saved
// whole (its breeds are its rows in signup_breeds, nothing else), the breed × country counts, the
// breed targets, and the names the catalogue missed.
import type Database from 'better-sqlite3'
import type { CountryCode } from '../../../contract/countries.js'
import type { KennelClub, Litters, Profile, Role } from '../../../contract/visitor.js'
import { auditWriter, now, type Run } from '../shared/sqlite.js'
import { createFigureCache, FIGURES_MAX_AGE_MS } from '../shared/figure-cache.js'
import type { SqliteRead } from '../shared/sqlite-reader.js'
import type { SqliteTallies } from '../tallies/sqlite.js'
import type { BreedStore, ProfileToSave } from '../types.js'
import {
  BREED_TARGETS_KEY,
  type BreedRow,
  breedCounts,
  breedCountsOfJson,
  breedTallyKey,
  READ_BREED_COUNTS_JSON,
  profileChanged,
  readyPairs,
  storedBreedTargets,
  toProfileBreed,
} from './shared.js'

export function createSqliteProfiles(db: Database.Database) {
  const head = db.prepare('SELECT role, country, kennel_club, litters FROM waitlist WHERE id = ?')
  const rows = db.prepare('SELECT name, breed, side, tests, other_tests FROM signup_breeds WHERE signup_id = ? ORDER BY position')
  const mapped = db.prepare('SELECT breed FROM breed_mappings WHERE name_key = ?').pluck()
  const clear = db.prepare('DELETE FROM signup_breeds WHERE signup_id = ?')
  // The sign-up's country (as the profile now says it) and whether it counts come with each row:
  // the counting triggers read them there.
  const insert = db.prepare(
    `INSERT INTO signup_breeds (signup_id, position, name, name_key, breed, side, tests, other_tests, country, counted)
     SELECT @id, @position, @name, @key, @breed, @side, @tests, @otherTests, coalesce(@country, ''),
       confirmed_at IS NOT NULL AND unsubscribed_at IS NULL
     FROM waitlist WHERE id = @id`,
  )
  // Written after the rows, so that a profile event carries them; profile_changed_at moves only when
  // what the event says of the breeds changed (role and country are its own columns).
  const update = db.prepare(
    `UPDATE waitlist SET role = @role, country = @country, kennel_club = @club, litters = @litters,
       profile_changed_at = CASE WHEN @changed THEN @now ELSE profile_changed_at END
     WHERE id = @id`,
  )
  const read = (id: number): Profile | undefined => {
    const row = head.get(id) as
      { role: Role | null; country: CountryCode | null; kennel_club: KennelClub | null; litters: Litters | null } | undefined
    if (!row) return undefined
    const breeds = (rows.all(id) as (Omit<BreedRow, 'tests'> & { tests: string })[]).map((breed) =>
      toProfileBreed({ ...breed, tests: JSON.parse(breed.tests) as BreedRow['tests'] }),
    )
    return { role: row.role, breeds, country: row.country, club: row.kennel_club, litters: row.litters }
  }
  const save = db.transaction((id: number, profile: ProfileToSave) => {
    const before = read(id)
    const breeds = profile.breeds.map((entry) => ({
      ...entry,
      breed: entry.breed ?? (mapped.get(entry.key) as string | undefined) ?? null,
    }))
    clear.run(id)
    breeds.forEach((entry, i) =>
      insert.run({
        id,
        position: i + 1,
        ...entry,
        country: profile.country,
        tests: JSON.stringify(entry.tests),
        otherTests: entry.otherTests,
      }),
    )
    update.run({
      id,
      role: profile.role,
      country: profile.country,
      club: profile.club,
      litters: profile.litters,
      changed: before !== undefined && profileChanged(before.breeds, breeds) ? 1 : 0,
      now: now(),
    })
  })
  return { read, save: (id: number, profile: ProfileToSave) => save.immediate(id, profile) }
}

export function createSqliteBreeds(
  db: Database.Database,
  run: Run,
  tallies: SqliteTallies,
  { read, live }: { read: SqliteRead; live: () => boolean },
): BreedStore & { readyNow(): string[]; mappingsNow(keys: readonly string[]): Map<string, string> } {
  const writeAudit = auditWriter(db)
  const setting = db.prepare('SELECT value FROM settings WHERE key = ?').pluck()
  const putSetting = db.prepare(
    `INSERT INTO settings (key, value, updated_at) VALUES (@key, @value, @now)
     ON CONFLICT (key) DO UPDATE SET value = excluded.value, updated_at = excluded.updated_at`,
  )
  // Only names without a breed: a mapped name, and one the catalogue reads, are not listed.
  // Read on the reader's thread, kept a minute at scale (a mapping forgets it at once).
  const unmatched = createFigureCache(
    async (limit: string) => ({
      names: await read<{ name: string; count: number }>(
        `SELECT min(name) AS name, count(*) AS count FROM signup_breeds WHERE breed IS NULL AND name_key IS NOT NULL
         GROUP BY name_key ORDER BY count DESC, name_key LIMIT ?`,
        [Number(limit)],
      ),
    }),
    { maxAgeMs: FIGURES_MAX_AGE_MS, live },
  )
  const putMapping = db.prepare(
    `INSERT INTO breed_mappings (name_key, breed) VALUES (@key, @breed) ON CONFLICT (name_key) DO UPDATE SET breed = excluded.breed`,
  )
  // Every row of the key, and only those: the catalogue does not know the name (the route refuses
  // one it knows), so no row of it holds a breed of the catalogue's. A corrected mapping moves them again.
  const mapRows = db
    .prepare('UPDATE signup_breeds SET breed = @breed WHERE name_key = @key AND breed IS NOT @breed RETURNING signup_id')
    .pluck()
  const changed = db.prepare('UPDATE waitlist SET profile_changed_at = @now WHERE id = @id')
  const copied = db.prepare('SELECT signup_id, position, name FROM signup_breeds WHERE name_key IS NULL LIMIT 1000')
  const readOne = db.prepare(
    `UPDATE signup_breeds SET name_key = @key, breed = coalesce(@breed, (SELECT breed FROM breed_mappings WHERE name_key = @key))
     WHERE signup_id = @signup_id AND position = @position`,
  )
  const mappings = db.prepare('SELECT name_key, breed FROM breed_mappings WHERE name_key IN (SELECT value FROM json_each(?))')
  const countsNow = () => breedCounts(tallies.readNow(['breed']))
  const targetsNow = () => storedBreedTargets(setting.get(BREED_TARGETS_KEY))
  return {
    // Every breed × country's tallies: read on the reader's thread, as one text.
    counts: async () => breedCountsOfJson((await read<{ counts: string }>(READ_BREED_COUNTS_JSON))[0]?.counts ?? '[]'),
    countsIn: (country, breeds) =>
      run(() =>
        breedCounts(
          tallies.readNow(
            ['breed'],
            [...new Set(breeds)].map((breed) => breedTallyKey(breed, country)),
          ),
        ),
      ),
    targets: () => run(targetsNow),
    setTargets: (targets, audit) =>
      run(() =>
        db.transaction(() => {
          putSetting.run({ key: BREED_TARGETS_KEY, value: JSON.stringify(targets), now: now() })
          if (audit) writeAudit(audit)
        })(),
      ),
    unmatched: async (limit) => (await unmatched.get(String(limit))).names,
    map: (key, breed, audit) =>
      run(() => {
        const moved = db
          .transaction(() => {
            putMapping.run({ key, breed })
            const signups = [...new Set(mapRows.all({ key, breed }) as number[])]
            const at = now()
            for (const id of signups) changed.run({ id, now: at })
            if (audit) writeAudit({ ...audit, detail: { ...audit.detail, signups: signups.length } })
            return signups.length
          })
          .immediate()
        unmatched.forget()
        return moved
      }),
    readCopied: (read) =>
      run(() => {
        let total = 0
        for (;;) {
          const batch = copied.all() as { signup_id: number; position: number; name: string }[]
          if (batch.length === 0) return total
          db.transaction(() => {
            for (const row of batch) readOne.run({ ...row, ...read(row.name) })
          }).immediate()
          total += batch.length
        }
      }),
    readyNow: () => readyPairs(countsNow(), targetsNow()),
    // On the caller's thread and inside its transaction: a send reads the mappings its rows are queued by.
    mappingsNow: (keys) =>
      keys.length === 0
        ? new Map()
        : new Map((mappings.all(JSON.stringify(keys)) as { name_key: string; breed: string }[]).map((row) => [row.name_key, row.breed])),
  }
}
