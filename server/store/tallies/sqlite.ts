// Tallies in SQLite: one writer at a time, so each trigger adds to its tally row at once
// (db/sqlite/014_one_truth.sql); reading is reading the rows.
import type Database from 'better-sqlite3'
import type { Run } from '../shared/sqlite.js'
import type { Tallies, TallyKind, TallyRow } from './shared.js'

/** Some kinds' tallies (@kinds: a JSON array). */
const READ_TALLIES = `SELECT kind, key, field, n FROM tallies WHERE kind IN (SELECT value FROM json_each(@kinds)) AND n <> 0`
/**
 * Some keys' (@keys: a JSON array), by the primary key. (One statement for all keys or one,
 * `@key IS NULL OR key = @key`, read every row of the kinds: 26,000 breed tallies for each of a
 * visitor's breeds at a million sign-ups.)
 */
const READ_TALLIES_OF_KEYS = `SELECT kind, key, field, n FROM tallies
  WHERE kind IN (SELECT value FROM json_each(@kinds)) AND key IN (SELECT value FROM json_each(@keys)) AND n <> 0`

export type SqliteTallies = Tallies & { readNow(kinds: readonly TallyKind[], keys?: readonly string[]): TallyRow[] }

export function createSqliteTallies(db: Database.Database, run: Run): SqliteTallies {
  const read = db.prepare(READ_TALLIES)
  const readKeys = db.prepare(READ_TALLIES_OF_KEYS)
  const readNow = (kinds: readonly TallyKind[], keys?: readonly string[]) =>
    (keys === undefined
      ? read.all({ kinds: JSON.stringify(kinds) })
      : readKeys.all({ kinds: JSON.stringify(kinds), keys: JSON.stringify(keys) })) as TallyRow[]
  return { readNow, read: (kinds, keys) => run(() => readNow(kinds, keys)) }
}

/**
 * Every tally made again from the rows, as db/sqlite/014 first made them: for a store loaded in
 * bulk with its triggers off (bench/scale.ts), never on a running store. A deleted sign-up's mails
 * are not counted (their rows are gone).
 */
export const RECOUNT_TALLIES = `
  DELETE FROM tallies;
  INSERT INTO tallies (kind, key, field, n)
    SELECT 'breed', c.breed || '|' || c.country, f.field,
      sum(CASE f.field WHEN 'studs' THEN c.studs WHEN 'dams' THEN c.dams WHEN 'seekers' THEN c.seekers ELSE c.profiles END)
    FROM breed_contributions AS c JOIN tally_fields AS f ON f.kind = 'breed'
    GROUP BY 1, 2, 3 HAVING sum(CASE f.field WHEN 'studs' THEN c.studs WHEN 'dams' THEN c.dams WHEN 'seekers' THEN c.seekers ELSE c.profiles END) <> 0;
  INSERT INTO tallies (kind, key, field, n) SELECT 'outbox', coalesce(campaign_id, ''), state, count(*) FROM outbox GROUP BY 1, 2, 3;
  INSERT INTO tallies (kind, key, field, n)
    SELECT kind, key, field, count(*) FROM (
      SELECT 'mail' AS kind, '' AS key, 'sent' AS field FROM outbox WHERE state IN ('sent', 'bounced')
      UNION ALL SELECT 'mail', '', 'refused' FROM outbox WHERE state = 'bounced'
      UNION ALL SELECT 'mail-campaign', campaign_id, 'sent' FROM outbox WHERE campaign_id IS NOT NULL AND state IN ('sent', 'bounced')
      UNION ALL SELECT 'mail-campaign', campaign_id, 'refused' FROM outbox WHERE campaign_id IS NOT NULL AND state = 'bounced'
      UNION ALL SELECT 'mail-domain', r.domain, 'sent' FROM outbox JOIN outbox_recipients AS r ON r.id = outbox.id
        WHERE r.domain IS NOT NULL AND outbox.state IN ('sent', 'bounced')
      UNION ALL SELECT 'mail-domain', r.domain, 'refused' FROM outbox JOIN outbox_recipients AS r ON r.id = outbox.id
        WHERE r.domain IS NOT NULL AND outbox.state = 'bounced'
      UNION ALL SELECT 'mail-day', substr(sent_at, 1, 10), 'sent' FROM outbox WHERE state = 'sent' AND sent_at IS NOT NULL
      UNION ALL SELECT 'mail-day', substr(at, 1, 10), 'complaints' FROM mail_events WHERE type = 'complaint'
      UNION ALL SELECT 'mail-unattributed', '', CASE type WHEN 'hard-bounce' THEN 'hard' WHEN 'soft-bounce' THEN 'soft' ELSE 'complained' END
        FROM mail_events WHERE outbox_id IS NULL
    ) GROUP BY 1, 2, 3;
  WITH counted AS (
    SELECT DISTINCT e.outbox_id, CASE e.type WHEN 'hard-bounce' THEN 'hard' WHEN 'soft-bounce' THEN 'soft' ELSE 'complained' END AS field
    FROM mail_events AS e JOIN outbox ON outbox.id = e.outbox_id
    WHERE outbox.state IN ('sent', 'bounced') AND (e.type <> 'hard-bounce' OR outbox.state = 'sent')
  )
  INSERT INTO tallies (kind, key, field, n)
    SELECT 'mail', '', field, count(*) FROM counted GROUP BY field
    UNION ALL SELECT 'mail-campaign', r.campaign_id, field, count(*) FROM counted JOIN outbox_recipients AS r ON r.id = counted.outbox_id
      WHERE r.campaign_id IS NOT NULL GROUP BY 2, 3
    UNION ALL SELECT 'mail-domain', r.domain, field, count(*) FROM counted JOIN outbox_recipients AS r ON r.id = counted.outbox_id
      WHERE r.domain IS NOT NULL GROUP BY 2, 3;
  INSERT INTO tallies (kind, key, field, n)
    SELECT 'mail-campaign', campaign_id, 'unsubscribed', count(*) FROM unsubscribe_tallies WHERE campaign_id IS NOT NULL GROUP BY 2;
  INSERT INTO tallies (kind, key, field, n)
    SELECT 'mail-domain', domain, 'unsubscribed', count(*) FROM unsubscribe_tallies WHERE domain IS NOT NULL GROUP BY 2;
  INSERT INTO tallies (kind, key, field, n) SELECT 'people', coalesce(role, '') || '|' || coalesce(country, '') || '|' || locale || '|' || coalesce(platform, '') || '|' ||
      CASE WHEN unsubscribed_at IS NOT NULL THEN CASE WHEN confirmed_at IS NOT NULL THEN 'stopped' ELSE 'stopped-unconfirmed' END
        WHEN confirmed_at IS NOT NULL THEN 'waiting' WHEN import_id IS NOT NULL THEN 'imported' ELSE 'unconfirmed' END, 'n', count(*) FROM waitlist GROUP BY 2;
  INSERT INTO tallies (kind, key, field, n) SELECT 'signups-day', substr(created_at, 1, 10), 'signups', count(*) FROM waitlist GROUP BY 2;
  INSERT INTO tallies (kind, key, field, n) SELECT 'signups-source', coalesce(utm_source, referrer, ''), 'signups', count(*) FROM waitlist GROUP BY 2;
  INSERT INTO tallies (kind, key, field, n)
    SELECT 'partner', CAST(partner_id AS TEXT), 'signups', count(*) FROM waitlist WHERE partner_id IS NOT NULL GROUP BY 2
    UNION ALL SELECT 'partner', CAST(partner_id AS TEXT), 'confirmed', count(confirmed_at) FROM waitlist WHERE partner_id IS NOT NULL GROUP BY 2;`
