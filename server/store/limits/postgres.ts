// The limits' counters in PostgreSQL: shared by every instance, so several count together (DESIGN, Scale).
import type pg from 'pg'
import { createGroupCommit } from '../shared/group-commit.js'
import type { Run } from '../shared/postgres.js'
import type { WindowCount, WindowCounters, WindowHit } from '../types.js'

/**
 * `n` hits to each key, in one statement: a closed window restarts at n, an open one counts on.
 * Keys are taken in a sorted order, so concurrent statements lock rows in the same order.
 */
const HIT_COUNTERS = `
  INSERT INTO rate_counters AS c (key, hits, window_ends)
  SELECT key, n, now() + window_ms * interval '1 millisecond'
  FROM unnest($1::text[], $2::bigint[], $3::int[]) AS w(key, window_ms, n) ORDER BY key
  ON CONFLICT (key) DO UPDATE SET
    hits = CASE WHEN c.window_ends <= now() THEN excluded.hits ELSE c.hits + excluded.hits END,
    window_ends = CASE WHEN c.window_ends <= now() THEN excluded.window_ends ELSE c.window_ends END
  RETURNING key, hits, ceil(extract(epoch FROM c.window_ends - now()) * 1000)::bigint AS reset_ms`

/**
 * One hit back from each key's open window (none below 0); the rows locked in the keys' sorted
 * order, as HIT_COUNTERS takes them, so the two never wait for each other in a circle.
 */
const GIVE_BACK = `
  WITH taken AS (
    SELECT key FROM rate_counters WHERE key = ANY($1::text[]) AND window_ends > now() AND hits > 0 ORDER BY key FOR UPDATE
  )
  UPDATE rate_counters AS c SET hits = c.hits - 1 FROM taken WHERE c.key = taken.key`

export function createPostgresCounters(pool: pg.Pool, run: Run): WindowCounters & { drain: () => Promise<void> } {
  // The counters' hits of one event-loop turn go in one statement, like the sign-ups: a key hit
  // k times in the batch counts k at once, and its callers get the counts in the order they came.
  const counterHits = createGroupCommit<WindowHit, WindowCount>(async (hits) => {
    const batch = new Map<string, { windowMs: number; n: number }>()
    for (const { key, windowMs } of hits) {
      const entry = batch.get(key)
      if (entry) entry.n++
      else batch.set(key, { windowMs, n: 1 })
    }
    const keys = [...batch.keys()]
    const entries = [...batch.values()]
    const result = await run(() =>
      pool.query<{ key: string; hits: number; reset_ms: string }>(HIT_COUNTERS, [
        keys,
        entries.map((e) => e.windowMs),
        entries.map((e) => e.n),
      ]),
    )
    const totals = new Map(result.rows.map((r) => [r.key, r]))
    const given = new Map<string, number>()
    return hits.map(({ key }) => {
      const total = totals.get(key)
      const n = batch.get(key)?.n ?? 1
      const before = given.get(key) ?? 0
      given.set(key, before + 1)
      if (!total) return { ok: false as const, error: new Error(`rate_counters: no row for a key`) }
      return { ok: true as const, value: { hits: total.hits - n + before + 1, resetMs: Number(total.reset_ms) } }
    })
  })

  return {
    hit: (windows) => Promise.all(windows.map((window) => counterHits.submit(window))),
    peek: (key) =>
      run(async () => {
        const result = await pool.query<{ hits: number; reset_ms: string }>(
          `SELECT hits, ceil(extract(epoch FROM window_ends - now()) * 1000)::bigint AS reset_ms
           FROM rate_counters WHERE key = $1 AND window_ends > now()`,
          [key],
        )
        const row = result.rows[0]
        return row ? { hits: row.hits, resetMs: Number(row.reset_ms) } : { hits: 0, resetMs: 0 }
      }),
    giveBack: (keys) =>
      run(async () => {
        await pool.query(GIVE_BACK, [keys])
      }),
    drain: () => counterHits.drain(),
  }
}
