// Tallies in PostgreSQL (docs/decisions/021-tallies.md): triggers append their differences to
// tally_deltas, locking nothing but the row they insert; one folder at a time (an advisory lock)
// adds them to `tallies` in the keys' order, so no two transactions ever wait on each other's
// counters. A read adds the deltas not yet folded: a count is exact the moment it changed.
import type pg from 'pg'
import { inTransaction, type Queryable, type Run } from '../shared/postgres.js'
import type { Tallies, TallyKind, TallyRow } from './shared.js'

/** The folder's lock: one instance folds at a time, the others pass. */
const FOLD_LOCK = 'kennect:tallies'
/** How often each instance offers to fold. */
export const FOLD_EVERY_MS = 2_000

const READ = `SELECT kind, key, field, sum(n)::bigint AS n FROM (
    SELECT kind, key, field, n FROM tallies WHERE kind = ANY($1::text[]) AND ($2::text IS NULL OR key = $2)
    UNION ALL SELECT kind, key, field, n FROM tally_deltas WHERE kind = ANY($1::text[]) AND ($2::text IS NULL OR key = $2)
  ) AS t GROUP BY kind, key, field HAVING sum(n) <> 0`

const FOLD = `WITH moved AS (DELETE FROM tally_deltas RETURNING kind, key, field, n)
  INSERT INTO tallies AS t (kind, key, field, n)
  SELECT kind, key, field, sum(n) FROM moved GROUP BY kind, key, field ORDER BY kind, key, field
  ON CONFLICT (kind, key, field) DO UPDATE SET n = t.n + excluded.n`

/** Some kinds' tallies (or one key's), the deltas not yet folded added: one statement, one snapshot. */
export async function readTallies(db: Queryable, kinds: readonly TallyKind[], key?: string): Promise<TallyRow[]> {
  const result = await db.query<Omit<TallyRow, 'n'> & { n: string }>(READ, [kinds, key ?? null])
  return result.rows.map((row) => ({ ...row, n: Number(row.n) }))
}

/** Adds the deltas up, unless another instance is at it; answers whether this one did. */
export function foldTallies(pool: pg.Pool): Promise<boolean> {
  return inTransaction(pool, async (client) => {
    const { rows } = await client.query<{ locked: boolean }>('SELECT pg_try_advisory_xact_lock(hashtext($1)) AS locked', [FOLD_LOCK])
    if (rows[0]?.locked) await client.query(FOLD)
    return rows[0]?.locked === true
  })
}

export function createPostgresTallies(pool: pg.Pool, run: Run): Tallies {
  return { read: (kinds, key) => run(() => readTallies(pool, kinds, key)) }
}
