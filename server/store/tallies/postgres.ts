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
    SELECT kind, key, field, n FROM tallies WHERE kind = ANY($1::text[])
    UNION ALL SELECT kind, key, field, n FROM tally_deltas WHERE kind = ANY($1::text[])
  ) AS t GROUP BY kind, key, field HAVING sum(n) <> 0`
/** Some keys', by the primary key (a statement for both would be planned for every key of the kinds). */
const READ_KEYS = `SELECT kind, key, field, sum(n)::bigint AS n FROM (
    SELECT kind, key, field, n FROM tallies WHERE kind = ANY($1::text[]) AND key = ANY($2::text[])
    UNION ALL SELECT kind, key, field, n FROM tally_deltas WHERE kind = ANY($1::text[]) AND key = ANY($2::text[])
  ) AS t GROUP BY kind, key, field HAVING sum(n) <> 0`

const FOLD = `WITH moved AS (DELETE FROM tally_deltas RETURNING kind, key, field, n)
  INSERT INTO tallies AS t (kind, key, field, n)
  SELECT kind, key, field, sum(n) FROM moved GROUP BY kind, key, field ORDER BY kind, key, field
  ON CONFLICT (kind, key, field) DO UPDATE SET n = t.n + excluded.n`

/** Some kinds' tallies (or some keys'), the deltas not yet folded added: one statement, one snapshot. */
export async function readTallies(db: Queryable, kinds: readonly TallyKind[], keys?: readonly string[]): Promise<TallyRow[]> {
  const result =
    keys === undefined
      ? await db.query<Omit<TallyRow, 'n'> & { n: string }>(READ, [kinds])
      : await db.query<Omit<TallyRow, 'n'> & { n: string }>(READ_KEYS, [kinds, keys])
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
  return { read: (kinds, keys) => run(() => readTallies(pool, kinds, keys)) }
}

/**
 * Every tally made again from the rows, as db/postgres/014 first made them: for a store loaded in
 * bulk with its triggers off (bench/scale.ts), never on a running store. A deleted sign-up's mails
 * are not counted (their rows are gone).
 */
export const RECOUNT_TALLIES = `
  TRUNCATE tallies, tally_deltas;
  INSERT INTO tallies (kind, key, field, n)
    SELECT 'breed', c.breed || '|' || c.country, f.field, sum(CASE f.field WHEN 'studs' THEN c.studs WHEN 'dams' THEN c.dams WHEN 'seekers' THEN c.seekers ELSE 1 END)
    FROM (SELECT signup_id, breed, country, max(CASE WHEN side IN ('stud', 'both') THEN 1 ELSE 0 END) AS studs,
            max(CASE WHEN side IN ('dam', 'both') THEN 1 ELSE 0 END) AS dams, max(CASE WHEN side = 'seeker' THEN 1 ELSE 0 END) AS seekers
          FROM signup_breeds WHERE breed IS NOT NULL AND counted GROUP BY signup_id, breed, country) AS c
      CROSS JOIN (VALUES ('studs'), ('dams'), ('seekers'), ('profiles')) AS f (field)
    GROUP BY 1, 2, 3
    HAVING sum(CASE f.field WHEN 'studs' THEN c.studs WHEN 'dams' THEN c.dams WHEN 'seekers' THEN c.seekers ELSE 1 END) <> 0;
  INSERT INTO tallies (kind, key, field, n) SELECT 'outbox', coalesce(campaign_id::text, ''), state, count(*) FROM outbox GROUP BY 1, 2, 3;
  INSERT INTO tallies (kind, key, field, n)
    SELECT kind, key, field, count(*) FROM (
      SELECT 'mail' AS kind, '' AS key, 'sent' AS field FROM outbox WHERE state IN ('sent', 'bounced')
      UNION ALL SELECT 'mail', '', 'refused' FROM outbox WHERE state = 'bounced'
      UNION ALL SELECT 'mail-campaign', campaign_id::text, 'sent' FROM outbox WHERE campaign_id IS NOT NULL AND state IN ('sent', 'bounced')
      UNION ALL SELECT 'mail-campaign', campaign_id::text, 'refused' FROM outbox WHERE campaign_id IS NOT NULL AND state = 'bounced'
      UNION ALL SELECT 'mail-domain', r.domain, 'sent' FROM outbox JOIN outbox_recipients AS r ON r.id = outbox.id
        WHERE r.domain IS NOT NULL AND outbox.state IN ('sent', 'bounced')
      UNION ALL SELECT 'mail-domain', r.domain, 'refused' FROM outbox JOIN outbox_recipients AS r ON r.id = outbox.id
        WHERE r.domain IS NOT NULL AND outbox.state = 'bounced'
      UNION ALL SELECT 'mail-day', to_char(sent_at AT TIME ZONE 'UTC', 'YYYY-MM-DD'), 'sent' FROM outbox WHERE state = 'sent' AND sent_at IS NOT NULL
      UNION ALL SELECT 'mail-day', to_char(at AT TIME ZONE 'UTC', 'YYYY-MM-DD'), 'complaints' FROM mail_events WHERE type = 'complaint'
      UNION ALL SELECT 'mail-unattributed', '', CASE type WHEN 'hard-bounce' THEN 'hard' WHEN 'soft-bounce' THEN 'soft' ELSE 'complained' END
        FROM mail_events WHERE outbox_id IS NULL
    ) AS rows GROUP BY 1, 2, 3;
  WITH counted AS (
    SELECT DISTINCT e.outbox_id, CASE e.type WHEN 'hard-bounce' THEN 'hard' WHEN 'soft-bounce' THEN 'soft' ELSE 'complained' END AS field
    FROM mail_events AS e JOIN outbox ON outbox.id = e.outbox_id
    WHERE outbox.state IN ('sent', 'bounced') AND (e.type <> 'hard-bounce' OR outbox.state = 'sent')
  )
  INSERT INTO tallies (kind, key, field, n)
    SELECT 'mail', '', field, count(*) FROM counted GROUP BY field
    UNION ALL SELECT 'mail-campaign', r.campaign_id::text, field, count(*) FROM counted JOIN outbox_recipients AS r ON r.id = counted.outbox_id
      WHERE r.campaign_id IS NOT NULL GROUP BY 2, 3
    UNION ALL SELECT 'mail-domain', r.domain, field, count(*) FROM counted JOIN outbox_recipients AS r ON r.id = counted.outbox_id
      WHERE r.domain IS NOT NULL GROUP BY 2, 3;
  INSERT INTO tallies (kind, key, field, n)
    SELECT kind, key, 'unsubscribed', count(*) FROM (
      SELECT 'mail-campaign' AS kind, (SELECT o.campaign_id::text FROM outbox AS o WHERE o.signup_id = w.id AND o.campaign_id IS NOT NULL
          AND o.state = 'sent' AND o.sent_at <= w.unsubscribed_at ORDER BY o.sent_at DESC, o.id DESC LIMIT 1) AS key
      FROM waitlist AS w WHERE w.unsubscribed_at IS NOT NULL
      UNION ALL
      SELECT 'mail-domain', lower(substr(w.email, strpos(w.email, '@') + 1)) FROM waitlist AS w
      WHERE w.unsubscribed_at IS NOT NULL AND EXISTS (SELECT 1 FROM outbox AS o WHERE o.signup_id = w.id AND o.state = 'sent' AND o.sent_at <= w.unsubscribed_at)
    ) AS u WHERE key IS NOT NULL GROUP BY 1, 2;
  INSERT INTO tallies (kind, key, field, n) SELECT 'people', people_key(w), 'n', count(*) FROM waitlist AS w GROUP BY 2;
  INSERT INTO tallies (kind, key, field, n) SELECT 'signups-day', to_char(created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD'), 'signups', count(*) FROM waitlist GROUP BY 2;
  INSERT INTO tallies (kind, key, field, n) SELECT 'signups-source', coalesce(utm_source, referrer, ''), 'signups', count(*) FROM waitlist GROUP BY 2;
  INSERT INTO tallies (kind, key, field, n)
    SELECT 'partner', partner_id::text, 'signups', count(*) FROM waitlist WHERE partner_id IS NOT NULL GROUP BY 2
    UNION ALL SELECT 'partner', partner_id::text, 'confirmed', count(confirmed_at) FROM waitlist WHERE partner_id IS NOT NULL GROUP BY 2;`
