// `npm run bench:deliverability`: the Deliverability view at scale (issue 32, item 5). 1,000,000
// sign-ups (DELIVERABILITY_ROWS) at 500 domains, a confirmation each and DELIVERABILITY_CAMPAIGNS
// campaigns (4) to all of them, 2 % refused, 1 % unsubscribed, 5,000 bounces and complaints tied to
// campaign mails; on SQLite and (with TEST_DATABASE_URL) PostgreSQL: GET /admin/api/deliverability
// at p50/p95 through the real server (on SQLite, how long the event loop is held). The rows are
// written in bulk and the kept counts made once after, as the migration makes them.
import Database from 'better-sqlite3'
import pg from 'pg'
import { ensureBuild } from '../scripts/ensure-build.mjs'
import { loadConfig } from '../server/config'
import { createStore } from '../server/store/index'
import { createTestSchema, TEST_DATABASE_URL } from '../tests/support/postgres'
import { startServer, tempSqlitePath } from '../tests/support/server'

const ROWS = Number(process.env.DELIVERABILITY_ROWS ?? 1_000_000)
const CAMPAIGNS = Number(process.env.DELIVERABILITY_CAMPAIGNS ?? 4)
const EVENTS = 5_000
const ASKS = 20
const TOKEN = 'deliverability-benchmark-token-0123'

const quantile = (sorted: number[], q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? 0
const ms = (n: number) => `${n.toFixed(1)} ms`

/** The kept counts, made from the rows as migration 013 makes them. */
const RECOUNT_SQLITE = `
  DELETE FROM mail_domain_counts; DELETE FROM mail_day_counts; DELETE FROM mail_complaint_days; DELETE FROM mail_campaign_counts;
  INSERT INTO mail_campaign_counts (campaign_id, sent, refused)
    SELECT campaign_id, count(*), sum(state = 'bounced') FROM outbox
    WHERE campaign_id IS NOT NULL AND state IN ('sent', 'bounced') GROUP BY 1;
  INSERT INTO mail_domain_counts (domain, sent, refused)
    SELECT lower(substr(waitlist.email, instr(waitlist.email, '@') + 1)), count(*), sum(outbox.state = 'bounced')
    FROM outbox JOIN waitlist ON waitlist.id = outbox.signup_id WHERE outbox.state IN ('sent', 'bounced') GROUP BY 1;
  INSERT INTO mail_day_counts (day, sent)
    SELECT substr(sent_at, 1, 10), count(*) FROM outbox WHERE state = 'sent' AND sent_at IS NOT NULL GROUP BY 1;
  INSERT INTO mail_complaint_days (day, complaints)
    SELECT substr(at, 1, 10), count(*) FROM mail_events WHERE type = 'complaint' GROUP BY 1;`
const RECOUNT_POSTGRES = `
  TRUNCATE mail_domain_counts, mail_day_counts, mail_complaint_days, mail_campaign_counts;
  INSERT INTO mail_campaign_counts (campaign_id, sent, refused)
    SELECT campaign_id, count(*), count(*) FILTER (WHERE state = 'bounced') FROM outbox
    WHERE campaign_id IS NOT NULL AND state IN ('sent', 'bounced') GROUP BY 1;
  INSERT INTO mail_domain_counts (domain, sent, refused)
    SELECT lower(substr(waitlist.email, strpos(waitlist.email, '@') + 1)), count(*), count(*) FILTER (WHERE outbox.state = 'bounced')
    FROM outbox JOIN waitlist ON waitlist.id = outbox.signup_id WHERE outbox.state IN ('sent', 'bounced') GROUP BY 1;
  INSERT INTO mail_day_counts (day, sent)
    SELECT (sent_at AT TIME ZONE 'UTC')::date, count(*) FROM outbox WHERE state = 'sent' AND sent_at IS NOT NULL GROUP BY 1;
  INSERT INTO mail_complaint_days (day, complaints)
    SELECT (at AT TIME ZONE 'UTC')::date, count(*) FROM mail_events WHERE type = 'complaint' GROUP BY 1;`

/** Mails sent a few days ago, inside the 30-day window: day `n` before now. */
const daysAgo = (n: number) => new Date(Date.now() - n * 86_400_000).toISOString()

async function seedSqlite(path: string) {
  const store = await createStore(loadConfig({ SQLITE_PATH: path }), { warn: () => undefined })
  await store.close()
  const db = new Database(path)
  db.pragma('synchronous = OFF')
  db.exec(`WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < ${ROWS})
    INSERT INTO waitlist (id, email, created_at, confirmed_at, unsubscribed_at)
    SELECT i, 'r' || i || '@d' || (i % 500) || '.example', '${daysAgo(20)}', '${daysAgo(19)}',
      CASE WHEN i % 100 = 0 THEN '${daysAgo(1)}' END FROM n`)
  db.exec(`INSERT INTO outbox (signup_id, kind, message_key, state, sent_at)
    SELECT id, 'confirm', lower(hex(randomblob(16))), CASE WHEN id % 50 = 0 THEN 'bounced' ELSE 'sent' END, '${daysAgo(19)}' FROM waitlist`)
  for (let c = 1; c <= CAMPAIGNS; c += 1) {
    db.prepare(
      `INSERT INTO campaigns (id, subject, markdown, segment, status, recipients, sent_at) VALUES (?, ?, 'Hello.', '{}', 'sending', ?, ?)`,
    ).run(c, `Wave ${c}`, ROWS, daysAgo(10 - c))
    db.exec(`INSERT INTO outbox (signup_id, kind, campaign_id, message_key, state, sent_at)
      SELECT id, 'campaign', ${c}, lower(hex(randomblob(16))), CASE WHEN id % 50 = 0 THEN 'bounced' ELSE 'sent' END, '${daysAgo(10 - c)}'
      FROM waitlist`)
  }
  db.exec(`INSERT INTO mail_events (at, email_hash, signup_id, outbox_id, type, source, event_id)
    SELECT '${daysAgo(2)}', 'h' || outbox.id, outbox.signup_id, outbox.id,
      CASE outbox.id % 3 WHEN 0 THEN 'complaint' WHEN 1 THEN 'soft-bounce' ELSE 'hard-bounce' END, 'bench', 'bench-' || outbox.id
    FROM outbox WHERE kind = 'campaign' AND state = 'sent' AND outbox.id % 997 = 0 LIMIT ${EVENTS}`)
  db.exec(RECOUNT_SQLITE)
  db.exec('ANALYZE')
  db.close()
}

async function seedPostgres(url: string) {
  const store = await createStore(loadConfig({ DATABASE_URL: url }), { warn: () => undefined })
  await store.close()
  const client = new pg.Client({ connectionString: url })
  await client.connect()
  await client.query(
    `INSERT INTO waitlist (email, created_at, confirmed_at, unsubscribed_at)
     SELECT 'r' || i || '@d' || (i % 500) || '.example', $1, $2, CASE WHEN i % 100 = 0 THEN $3::timestamptz END
     FROM generate_series(1, ${ROWS}) AS i`,
    [daysAgo(20), daysAgo(19), daysAgo(1)],
  )
  await client.query(
    `INSERT INTO outbox (signup_id, kind, state, sent_at)
     SELECT id, 'confirm', CASE WHEN id % 50 = 0 THEN 'bounced' ELSE 'sent' END, $1 FROM waitlist`,
    [daysAgo(19)],
  )
  for (let c = 1; c <= CAMPAIGNS; c += 1) {
    const made = await client.query<{ id: string }>(
      `INSERT INTO campaigns (subject, markdown, segment, status, recipients, sent_at) VALUES ($1, 'Hello.', '{}', 'sending', $2, $3) RETURNING id`,
      [`Wave ${c}`, ROWS, daysAgo(10 - c)],
    )
    await client.query(
      `INSERT INTO outbox (signup_id, kind, campaign_id, state, sent_at)
       SELECT id, 'campaign', $1, CASE WHEN id % 50 = 0 THEN 'bounced' ELSE 'sent' END, $2 FROM waitlist`,
      [made.rows[0]?.id, daysAgo(10 - c)],
    )
  }
  await client.query(
    `INSERT INTO mail_events (at, email_hash, signup_id, outbox_id, type, source, event_id)
     SELECT $1, 'h' || outbox.id, outbox.signup_id, outbox.id,
       CASE outbox.id % 3 WHEN 0 THEN 'complaint' WHEN 1 THEN 'soft-bounce' ELSE 'hard-bounce' END, 'bench', 'bench-' || outbox.id
     FROM outbox WHERE kind = 'campaign' AND state = 'sent' AND outbox.id % 997 = 0 LIMIT ${EVENTS}`,
    [daysAgo(2)],
  )
  await client.query(RECOUNT_POSTGRES)
  await client.query('ANALYZE')
  await client.end()
}

async function measure(kind: string, env: Record<string, string>) {
  const server = await startServer({ ...env, ADMIN_TOKEN: TOKEN })
  try {
    const times: number[] = []
    let campaigns = 0
    for (let i = 0; i < ASKS; i += 1) {
      const started = performance.now()
      const answer = await fetch(`${server.url}/admin/api/deliverability`, { headers: { authorization: `Bearer ${TOKEN}` } })
      const body = (await answer.json()) as { campaigns: unknown[] }
      times.push(performance.now() - started)
      campaigns = body.campaigns.length
    }
    times.sort((a, b) => a - b)
    console.log(
      `${kind}: GET /admin/api/deliverability (${campaigns} campaigns) p50 ${ms(quantile(times, 0.5))}, p95 ${ms(quantile(times, 0.95))}`,
    )
  } finally {
    await server.close()
  }
}

await ensureBuild()
const mails = ROWS * (1 + CAMPAIGNS)
console.log(`${ROWS.toLocaleString('en')} sign-ups, ${mails.toLocaleString('en')} mails, ${EVENTS.toLocaleString('en')} events`)
{
  const db = tempSqlitePath()
  try {
    const started = performance.now()
    await seedSqlite(db.path)
    console.log(`sqlite: seeded in ${((performance.now() - started) / 1000).toFixed(0)} s`)
    await measure('sqlite', { SQLITE_PATH: db.path })
  } finally {
    db.cleanup()
  }
}
if (TEST_DATABASE_URL) {
  const schema = await createTestSchema()
  try {
    const started = performance.now()
    await seedPostgres(schema.url)
    console.log(`postgres: seeded in ${((performance.now() - started) / 1000).toFixed(0)} s`)
    await measure('postgres', { DATABASE_URL: schema.url })
  } finally {
    await schema.cleanup()
  }
} else console.log('postgres: skipped (TEST_DATABASE_URL is not set)')
