// The store as a launch leaves it, made in bulk for bench/scale.ts: N sign-ups over 30 countries
// and six languages, 60 % breeders with profiles over the catalogue's breeds (a few breeds most of
// the rows), a confirmation mail each and four campaigns to all (5 mails a sign-up), bounces and
// complaints at the rates a healthy list sees, a few hundred invitations, page views, a webhook's
// deliveries and audit lines. Rows are written by SQL from a counter, each row's choices drawn
// from a hash of its number (the same store every time), with the store's triggers off; the
// tallies are then counted once from the rows (RECOUNT_TALLIES), as an import would.
import Database from 'better-sqlite3'
import { createHash } from 'node:crypto'
import pg from 'pg'
import { breedKey, type BreedCatalogue } from '../contract/breeds'
import catalogue from '../contract/breeds.json' with { type: 'json' }
import { loadConfig } from '../server/config'
import { hashToken } from '../server/secrets'
import { createStore } from '../server/store/index'
import { RECOUNT_TALLIES as RECOUNT_POSTGRES } from '../server/store/tallies/postgres'
import { RECOUNT_TALLIES as RECOUNT_SQLITE } from '../server/store/tallies/sqlite'

/** Countries with their share of sign-ups (per mille) and the language their people read. */
export const COUNTRIES: [string, number, string][] = [
  ['GB', 120, 'en'],
  ['DE', 110, 'de'],
  ['FR', 90, 'fr'],
  ['US', 90, 'en'],
  ['PL', 70, 'pl'],
  ['IT', 60, 'it'],
  ['ES', 60, 'es'],
  ['NL', 40, 'en'],
  ['BE', 30, 'fr'],
  ['AT', 25, 'de'],
  ['CH', 25, 'de'],
  ['SE', 25, 'en'],
  ['IE', 20, 'en'],
  ['DK', 20, 'en'],
  ['NO', 20, 'en'],
  ['FI', 15, 'en'],
  ['PT', 15, 'es'],
  ['CZ', 15, 'pl'],
  ['CA', 15, 'en'],
  ['AU', 15, 'en'],
  ['MX', 10, 'es'],
  ['AR', 10, 'es'],
  ['HU', 10, 'en'],
  ['RO', 10, 'en'],
  ['GR', 10, 'en'],
  ['SK', 10, 'pl'],
  ['SI', 5, 'en'],
  ['HR', 5, 'en'],
  ['LU', 5, 'fr'],
  ['NZ', 5, 'en'],
]
/** The campaigns sent to every sign-up. */
export const CAMPAIGNS = 4
/** Visitors whose page the bench opens: /me/<visitorToken(i)>. */
export const VISITORS = 20
/** A visitor's page token, known to the bench (the store keeps its hash). */
export const visitorToken = (i: number) => createHash('sha256').update(`kennect-bench-visitor-${i}`).digest('base64url')

const breeds = (catalogue as BreedCatalogue).breeds
const DAY_MS = 86_400_000

/** A row's number mixed into 0..2^32 (Knuth's multiplicative hash), per purpose. */
const h = (salt: number) => `(((i + ${salt}) * 2654435761) % 4294967296)`

/** The choices of a sign-up, as SQL over its number `i` (the same in both dialects but for text concatenation). */
function signupColumns(n: number, now: number, concat: (...parts: string[]) => string) {
  const perMille = COUNTRIES.reduce((sum, [, share]) => sum + share, 0)
  let upto = 0
  const country = `CASE ${COUNTRIES.map(([code, share]) => `WHEN ${h(1)} % ${perMille} < ${(upto += share)} THEN '${code}'`).join(' ')} END`
  upto = 0
  const locale = `CASE ${COUNTRIES.map(([, share, lang]) => `WHEN ${h(1)} % ${perMille} < ${(upto += share)} THEN '${lang}'`).join(' ')} END`
  const domain = `CASE WHEN ${h(2)} % 100 < 30 THEN 'gmail.com' WHEN ${h(2)} % 100 < 38 THEN 'yahoo.com' WHEN ${h(2)} % 100 < 46 THEN 'outlook.com'
    WHEN ${h(2)} % 100 < 51 THEN 'web.de' WHEN ${h(2)} % 100 < 56 THEN 'gmx.de' WHEN ${h(2)} % 100 < 60 THEN 'orange.fr'
    WHEN ${h(2)} % 100 < 63 THEN 'wp.pl' WHEN ${h(2)} % 100 < 66 THEN 'libero.it' WHEN ${h(2)} % 100 < 69 THEN 'icloud.com'
    ELSE ${concat(`'d'`, `(${h(3)} % 3000)`, `'.example'`)} END`
  // Spread over the last 120 days, the newest the busiest.
  const ageMs = `(${n} - i) * ${Math.floor((120 * DAY_MS) / n)}`
  return { country, locale, domain, ageMs, now }
}

/** Writes the launch into the store at SQLITE_PATH or DATABASE_URL (which must be empty but for its migrations). */
export async function seed(env: { SQLITE_PATH?: string; DATABASE_URL?: string }, n: number, log: (line: string) => void) {
  const store = await createStore(loadConfig({ ...env, LOG_LEVEL: 'silent' }), { warn: () => undefined }) // migrates
  await store.close()
  const started = Date.now()
  if (env.DATABASE_URL) await seedPostgres(env.DATABASE_URL, n, log)
  else await seedSqlite(env.SQLITE_PATH ?? 'data/waitlist.db', n, log)
  log(`seeded ${n.toLocaleString('en')} sign-ups in ${((Date.now() - started) / 1000).toFixed(0)} s`)
}

/** The breeds most named in Europe's registries, first: the skew gives the first few most of the rows. */
const POPULAR = ['labrador-retriever', 'french-bulldog', 'german-shepherd-dog', 'golden-retriever', 'dachshund', 'poodle', 'beagle']
/** Each breed with its key, the popular ones first. */
const breedRows = () =>
  [...breeds]
    .sort((a, b) => {
      const rank = (id: string) => (POPULAR.includes(id) ? POPULAR.indexOf(id) : POPULAR.length)
      return rank(a.id) - rank(b.id)
    })
    .map((breed, i) => [i, breed.id, breed.names.en, breedKey(breed.names.en)] as const)

async function seedSqlite(path: string, n: number, log: (line: string) => void) {
  const db = new Database(path)
  db.pragma('journal_mode = WAL')
  db.pragma('synchronous = OFF')
  const now = Date.now()
  const iso = (expression: string) => `strftime('%Y-%m-%dT%H:%M:%fZ', (${expression}) / 1000.0, 'unixepoch')`
  const c = signupColumns(n, now, (...parts) => parts.join(' || '))
  // A store that holds sign-ups is not filled: the triggers go off while it is, and the tallies are counted again.
  if (Number(db.prepare('SELECT count(*) FROM waitlist').pluck().get()) > 0)
    throw new Error(`seed: ${path} holds sign-ups already; give an empty store`)
  const triggers = db.prepare(`SELECT name, sql FROM sqlite_master WHERE type = 'trigger'`).all() as { name: string; sql: string }[]
  for (const trigger of triggers) db.exec(`DROP TRIGGER ${trigger.name}`)
  const step = (label: string, sql: string) => {
    const at = Date.now()
    db.exec(sql)
    log(`  ${label}: ${((Date.now() - at) / 1000).toFixed(1)} s`)
  }
  try {
    db.exec('CREATE TEMP TABLE bench_breeds (i INTEGER PRIMARY KEY, id TEXT, name TEXT, key TEXT)')
    const put = db.prepare('INSERT INTO bench_breeds VALUES (?, ?, ?, ?)')
    db.transaction(() => breedRows().forEach((row) => put.run(...row)))()
    const B = breeds.length
    step(
      'sign-ups',
      `WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < ${n})
     INSERT INTO waitlist (id, email, created_at, confirmed_at, unsubscribed_at, role, country, locale, utm_source, invite_code, invited_by,
       invite_credited_at, kennel_club, litters)
     SELECT i, 'u' || i || '@' || ${c.domain}, ${iso(`${now} - ${c.ageMs}`)},
       CASE WHEN ${h(4)} % 100 < 85 THEN ${iso(`${now} - ${c.ageMs} + 3600000`)} END,
       CASE WHEN ${h(4)} % 100 < 85 AND ${h(5)} % 100 < 2 THEN ${iso(`${now} - ${c.ageMs} / 2`)} END,
       CASE WHEN ${h(6)} % 100 < 60 THEN 'breeder' WHEN ${h(6)} % 100 < 85 THEN 'owner' WHEN ${h(6)} % 100 < 90 THEN 'club'
         WHEN ${h(6)} % 100 < 95 THEN 'enthusiast' END,
       ${c.country}, ${c.locale},
       CASE WHEN ${h(7)} % 10 < 3 THEN 'instagram' WHEN ${h(7)} % 10 < 5 THEN 'newsletter' WHEN ${h(7)} % 10 < 6 THEN 'club-' || (${h(8)} % 40) END,
       CASE WHEN ${h(4)} % 100 < 85 THEN 'invite-code-of-' || i END,
       CASE WHEN i % 2500 = 0 THEN i - 1 END,
       CASE WHEN i % 2500 = 0 AND ${h(4)} % 100 < 85 THEN ${iso(`${now} - ${c.ageMs} + 3600000`)} END,
       CASE WHEN ${h(6)} % 100 < 60 AND ${h(9)} % 3 = 0 THEN 'other' END,
       CASE WHEN ${h(6)} % 100 < 60 THEN ${h(9)} % 4 END
     FROM n`,
    )
    // Breeders name one to three breeds, a few owners one they look for; 2 % of names the catalogue misses.
    for (const position of [1, 2, 3])
      step(
        `breeds (${position})`,
        `INSERT INTO signup_breeds (signup_id, position, name, name_key, breed, side, tests, country, counted)
       SELECT w.id, ${position}, CASE WHEN ${h(20 + position).replace(/i/g, 'w.id')} % 50 = 0 THEN 'Mix ' || (w.id % 300) ELSE b.name END,
         CASE WHEN ${h(20 + position).replace(/i/g, 'w.id')} % 50 = 0 THEN 'mix ' || (w.id % 300) ELSE b.key END,
         CASE WHEN ${h(20 + position).replace(/i/g, 'w.id')} % 50 = 0 THEN NULL ELSE b.id END,
         CASE WHEN w.role = 'owner' THEN 'seeker' WHEN ${h(30 + position).replace(/i/g, 'w.id')} % 3 = 0 THEN 'stud'
           WHEN ${h(30 + position).replace(/i/g, 'w.id')} % 3 = 1 THEN 'dam' ELSE 'both' END,
         '[]', coalesce(w.country, ''), w.confirmed_at IS NOT NULL AND w.unsubscribed_at IS NULL
       FROM waitlist AS w JOIN bench_breeds AS b
         ON b.i = (((${h(40 + position).replace(/i/g, 'w.id')} % 1000) * (${h(40 + position).replace(/i/g, 'w.id')} % 1000) / 1000) * (${h(40 + position).replace(/i/g, 'w.id')} % 1000) / 1000) * ${B} / 1000
       WHERE (w.role = 'breeder' AND ${position} <= 1 + ${h(50).replace(/i/g, 'w.id')} % 3) OR (w.role = 'owner' AND ${position} = 1 AND ${h(51).replace(/i/g, 'w.id')} % 5 < 2)`,
      )
    step(
      'confirmation mails',
      `INSERT INTO outbox (signup_id, kind, message_key, state, attempts, next_attempt_at, created_at, sent_at)
     SELECT id, 'confirm', lower(hex(randomblob(16))), CASE WHEN ${h(60).replace(/i/g, 'id')} % 100 < 2 THEN 'bounced' ELSE 'sent' END, 1,
       created_at, created_at, created_at FROM waitlist`,
    )
    for (let k = 1; k <= CAMPAIGNS; k += 1) {
      const at = new Date(now - (5 - k) * 7 * DAY_MS).toISOString()
      db.prepare(
        `INSERT INTO campaigns (id, subject, markdown, segment, status, recipients, created_at, sent_at) VALUES (?, ?, 'Hello.', '{}', 'sending', ?, ?, ?)`,
      ).run(k, `Wave ${k}`, n, at, at)
      step(
        `campaign ${k}`,
        `INSERT INTO outbox (signup_id, kind, campaign_id, message_key, state, attempts, next_attempt_at, created_at, sent_at)
       SELECT id, 'campaign', ${k}, lower(hex(randomblob(16))), CASE WHEN ${h(60 + k).replace(/i/g, 'id')} % 100 < 2 THEN 'bounced' ELSE 'sent' END, 1,
         '${at}', '${at}', '${at}' FROM waitlist`,
      )
    }
    // Reported later: 0.3 % hard bounces, 0.5 % soft, 0.05 % complaints of the campaigns' mails.
    step(
      'mail events',
      `INSERT INTO mail_events (at, email_hash, signup_id, outbox_id, type, source, event_id)
     SELECT sent_at, lower(hex(randomblob(16))), signup_id, id,
       CASE WHEN ${h(70).replace(/i/g, 'id')} % 10000 < 30 THEN 'hard-bounce' WHEN ${h(70).replace(/i/g, 'id')} % 10000 < 80 THEN 'soft-bounce' ELSE 'complaint' END,
       'bench', 'bench-' || id
     FROM outbox WHERE kind = 'campaign' AND state = 'sent' AND ${h(70).replace(/i/g, 'id')} % 10000 < 85`,
    )
    step(
      'suppressions',
      `INSERT INTO suppressions (email_hash, email, reason, at)
     SELECT e.email_hash, lower(w.email), e.type, e.at FROM mail_events AS e JOIN waitlist AS w ON w.id = e.signup_id
     WHERE e.type IN ('hard-bounce', 'complaint') ON CONFLICT DO NOTHING`,
    )
    const tokens = db.prepare('INSERT INTO page_tokens (token_hash, signup_id) VALUES (?, ?)')
    db.transaction(() => {
      for (let i = 1; i <= VISITORS; i += 1) tokens.run(hashToken(visitorToken(i)), Math.floor((n / (VISITORS + 1)) * i))
    })()
    step(
      'page views',
      `WITH RECURSIVE d(k) AS (SELECT 0 UNION ALL SELECT k + 1 FROM d WHERE k < 119)
     INSERT INTO page_views (day, source, views, visitors)
     SELECT date(${now} / 1000, 'unixepoch', '-' || k || ' days'), s.source, 2000 + k * 7, 1500 + k * 5
     FROM d, (SELECT 'direct' AS source UNION ALL SELECT 'instagram' UNION ALL SELECT 'newsletter') AS s`,
    )
    step(
      'webhook deliveries',
      // Disabled: the bench's own sign-ups make no deliveries to an address outside this machine.
      `INSERT INTO webhook_endpoints (id, url, description, events, enabled, include_email, secret, disabled_reason) VALUES
       (1, 'https://hooks.example/kennect', 'CRM', '["signup.created","signup.confirmed"]', 0, 0, 'whsec_${'A'.repeat(32)}', 'gone');
     WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 20000)
     INSERT INTO webhook_events (id, message_id, type, signup_id, data, created_at)
       SELECT i, 'msg_bench_' || i, 'signup.created', i, '{"id":' || i || '}', ${iso(`${now} - (20000 - i) * 60000`)} FROM n;
     INSERT INTO webhook_deliveries (event_id, endpoint_id, state, attempts, next_attempt_at, created_at)
       SELECT id, 1, 'delivered', 1, created_at, created_at FROM webhook_events;
     INSERT INTO webhook_attempts (delivery_id, endpoint_id, event_type, attempt, at, duration_ms, status)
       SELECT id, 1, 'signup.created', 1, created_at, 40, 204 FROM webhook_deliveries;`,
    )
    step(
      'audit log',
      `WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 500)
     INSERT INTO audit_log (at, actor_id, actor, action, target, detail) SELECT ${iso(`${now} - (500 - i) * 3600000`)}, NULL, 'ADMIN_TOKEN',
       'settings changed', 'launch targets', NULL FROM n`,
    )
  } finally {
    // Back whatever happened: a failed seed leaves a store that still counts.
    for (const trigger of triggers) db.exec(trigger.sql)
  }
  step('tallies', RECOUNT_SQLITE)
  step('analyze', 'ANALYZE')
  db.pragma('wal_checkpoint(TRUNCATE)')
  db.close()
}

async function seedPostgres(url: string, n: number, log: (line: string) => void) {
  const client = new pg.Client({ connectionString: url })
  await client.connect()
  const now = Date.now()
  const iso = (expression: string) => `to_timestamp((${expression}) / 1000.0)`
  const c = signupColumns(n, now, (...parts) => parts.map((part) => `(${part})::text`).join(' || '))
  const step = async (label: string, sql: string) => {
    const at = Date.now()
    await client.query(sql)
    log(`  ${label}: ${((Date.now() - at) / 1000).toFixed(1)} s`)
  }
  await client.query('SET synchronous_commit = off')
  const tables = ['waitlist', 'signup_breeds', 'outbox', 'mail_events', 'campaigns', 'webhook_events', 'webhook_deliveries']
  const { rows } = await client.query<{ n: string }>('SELECT count(*) AS n FROM waitlist')
  if (Number(rows[0]?.n) > 0) throw new Error('seed: the database holds sign-ups already; give an empty one')
  for (const table of tables) await client.query(`ALTER TABLE ${table} DISABLE TRIGGER USER`)
  try {
    await client.query('CREATE TEMP TABLE bench_breeds (i int PRIMARY KEY, id text, name text, key text)')
    await client.query(
      'INSERT INTO bench_breeds SELECT * FROM unnest($1::int[], $2::text[], $3::text[], $4::text[])',
      [0, 1, 2, 3].map((column) => breedRows().map((row) => row[column])),
    )
    const B = breeds.length
    const hb = (salt: number, column: string) => `(((${column}::bigint + ${salt}) * 2654435761) % 4294967296)`
    await step(
      'sign-ups',
      `INSERT INTO waitlist (id, email, created_at, confirmed_at, unsubscribed_at, role, country, locale, utm_source, invite_code, invited_by,
       invite_credited_at, kennel_club, litters)
     OVERRIDING SYSTEM VALUE
     SELECT i, 'u' || i || '@' || ${c.domain}, ${iso(`${now} - ${c.ageMs}`)},
       CASE WHEN ${h(4)} % 100 < 85 THEN ${iso(`${now} - ${c.ageMs} + 3600000`)} END,
       CASE WHEN ${h(4)} % 100 < 85 AND ${h(5)} % 100 < 2 THEN ${iso(`${now} - ${c.ageMs} / 2`)} END,
       CASE WHEN ${h(6)} % 100 < 60 THEN 'breeder' WHEN ${h(6)} % 100 < 85 THEN 'owner' WHEN ${h(6)} % 100 < 90 THEN 'club'
         WHEN ${h(6)} % 100 < 95 THEN 'enthusiast' END,
       ${c.country}, ${c.locale},
       CASE WHEN ${h(7)} % 10 < 3 THEN 'instagram' WHEN ${h(7)} % 10 < 5 THEN 'newsletter' WHEN ${h(7)} % 10 < 6 THEN 'club-' || (${h(8)} % 40) END,
       CASE WHEN ${h(4)} % 100 < 85 THEN 'invite-code-of-' || i END,
       CASE WHEN i % 2500 = 0 THEN i - 1 END,
       CASE WHEN i % 2500 = 0 AND ${h(4)} % 100 < 85 THEN ${iso(`${now} - ${c.ageMs} + 3600000`)} END,
       CASE WHEN ${h(6)} % 100 < 60 AND ${h(9)} % 3 = 0 THEN 'other' END,
       CASE WHEN ${h(6)} % 100 < 60 THEN ${h(9)} % 4 END
     FROM generate_series(1::bigint, ${n}::bigint) AS i`,
    )
    await client.query(`SELECT setval(pg_get_serial_sequence('waitlist', 'id'), ${n})`)
    for (const position of [1, 2, 3])
      await step(
        `breeds (${position})`,
        `INSERT INTO signup_breeds (signup_id, position, name, name_key, breed, side, tests, country, counted)
       SELECT w.id, ${position}, CASE WHEN ${hb(20 + position, 'w.id')} % 50 = 0 THEN 'Mix ' || (w.id % 300) ELSE b.name END,
         CASE WHEN ${hb(20 + position, 'w.id')} % 50 = 0 THEN 'mix ' || (w.id % 300) ELSE b.key END,
         CASE WHEN ${hb(20 + position, 'w.id')} % 50 = 0 THEN NULL ELSE b.id END,
         CASE WHEN w.role = 'owner' THEN 'seeker' WHEN ${hb(30 + position, 'w.id')} % 3 = 0 THEN 'stud'
           WHEN ${hb(30 + position, 'w.id')} % 3 = 1 THEN 'dam' ELSE 'both' END,
         '{}', coalesce(w.country, ''), w.confirmed_at IS NOT NULL AND w.unsubscribed_at IS NULL
       FROM waitlist AS w JOIN bench_breeds AS b
         ON b.i = (((${hb(40 + position, 'w.id')} % 1000) * (${hb(40 + position, 'w.id')} % 1000) / 1000) * (${hb(40 + position, 'w.id')} % 1000) / 1000) * ${B} / 1000
       WHERE (w.role = 'breeder' AND ${position} <= 1 + ${hb(50, 'w.id')} % 3) OR (w.role = 'owner' AND ${position} = 1 AND ${hb(51, 'w.id')} % 5 < 2)`,
      )
    await step(
      'confirmation mails',
      `INSERT INTO outbox (signup_id, kind, state, attempts, next_attempt_at, created_at, sent_at)
     SELECT id, 'confirm', CASE WHEN ${hb(60, 'id')} % 100 < 2 THEN 'bounced' ELSE 'sent' END, 1, created_at, created_at, created_at FROM waitlist`,
    )
    for (let k = 1; k <= CAMPAIGNS; k += 1) {
      const at = new Date(now - (5 - k) * 7 * DAY_MS).toISOString()
      await client.query(
        `INSERT INTO campaigns (id, subject, markdown, segment, status, recipients, created_at, sent_at) OVERRIDING SYSTEM VALUE
       VALUES ($1, $2, 'Hello.', '{}', 'sending', $3, $4, $4)`,
        [k, `Wave ${k}`, n, at],
      )
      await step(
        `campaign ${k}`,
        `INSERT INTO outbox (signup_id, kind, campaign_id, state, attempts, next_attempt_at, created_at, sent_at)
       SELECT id, 'campaign', ${k}, CASE WHEN ${hb(60 + k, 'id')} % 100 < 2 THEN 'bounced' ELSE 'sent' END, 1, '${at}', '${at}', '${at}' FROM waitlist`,
      )
    }
    await client.query(`SELECT setval(pg_get_serial_sequence('campaigns', 'id'), ${CAMPAIGNS})`)
    await step(
      'mail events',
      `INSERT INTO mail_events (at, email_hash, signup_id, outbox_id, type, source, event_id)
     SELECT sent_at, md5(id::text), signup_id, id,
       CASE WHEN ${hb(70, 'id')} % 10000 < 30 THEN 'hard-bounce' WHEN ${hb(70, 'id')} % 10000 < 80 THEN 'soft-bounce' ELSE 'complaint' END,
       'bench', 'bench-' || id
     FROM outbox WHERE kind = 'campaign' AND state = 'sent' AND ${hb(70, 'id')} % 10000 < 85`,
    )
    await step(
      'suppressions',
      `INSERT INTO suppressions (email_hash, email, reason, at)
     SELECT e.email_hash, lower(w.email), e.type, e.at FROM mail_events AS e JOIN waitlist AS w ON w.id = e.signup_id
     WHERE e.type IN ('hard-bounce', 'complaint') ON CONFLICT DO NOTHING`,
    )
    for (let i = 1; i <= VISITORS; i += 1)
      await client.query('INSERT INTO page_tokens (token_hash, signup_id) VALUES ($1, $2)', [
        hashToken(visitorToken(i)),
        Math.floor((n / (VISITORS + 1)) * i),
      ])
    await step(
      'page views',
      `INSERT INTO page_views (day, source, views, visitors)
     SELECT (now() AT TIME ZONE 'UTC')::date - k, s.source, 2000 + k * 7, 1500 + k * 5
     FROM generate_series(0, 119) AS k, (VALUES ('direct'), ('instagram'), ('newsletter')) AS s (source)`,
    )
    await step(
      'webhook deliveries',
      `INSERT INTO webhook_endpoints (id, url, description, events, enabled, include_email, secret, disabled_reason) OVERRIDING SYSTEM VALUE VALUES
       (1, 'https://hooks.example/kennect', 'CRM', '["signup.created","signup.confirmed"]', false, false, 'whsec_${'A'.repeat(32)}', 'gone');
     INSERT INTO webhook_events (id, message_id, type, signup_id, data, created_at) OVERRIDING SYSTEM VALUE
       SELECT i, 'msg_bench_' || i, 'signup.created', i, jsonb_build_object('id', i), now() - (20000 - i) * interval '1 minute'
       FROM generate_series(1, 20000) AS i;
     INSERT INTO webhook_deliveries (event_id, endpoint_id, state, attempts, next_attempt_at, created_at)
       SELECT id, 1, 'delivered', 1, created_at, created_at FROM webhook_events;
     INSERT INTO webhook_attempts (delivery_id, endpoint_id, event_type, attempt, at, duration_ms, status)
       SELECT id, 1, 'signup.created', 1, created_at, 40, 204 FROM webhook_deliveries;
     SELECT setval(pg_get_serial_sequence('webhook_endpoints', 'id'), 1);
     SELECT setval(pg_get_serial_sequence('webhook_events', 'id'), 20000);`,
    )
    await step(
      'audit log',
      `INSERT INTO audit_log (at, actor_id, actor, action, target, detail)
     SELECT now() - (500 - i) * interval '1 hour', NULL, 'ADMIN_TOKEN', 'settings changed', 'launch targets', NULL FROM generate_series(1, 500) AS i`,
    )
  } finally {
    for (const table of tables) await client.query(`ALTER TABLE ${table} ENABLE TRIGGER USER`)
  }
  await step('tallies', RECOUNT_POSTGRES)
  await step('analyze', 'ANALYZE')
  await client.end()
}
