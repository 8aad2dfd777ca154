// Growth in PostgreSQL, the same as growth/sqlite.ts; the day's visitor key is shared by every instance.
import type pg from 'pg'
import { randomBytes } from 'node:crypto'
import { DIRECT_SOURCE, type FunnelDay, type FunnelSource } from '../../../contract/growth.js'
import { countOffPath, inTransaction, type Queryable, type Run, writeAudit } from '../shared/postgres.js'
import type { CountryCount, GrowthStore } from '../types.js'
import { countryCountsOf, PEOPLE_TALLIES, peopleOf, waitingOf } from '../tallies/people.js'
import { readTallies } from '../tallies/postgres.js'
import { createFigureCache, FIGURES_MAX_AGE_MS } from '../shared/figure-cache.js'
import { funnelOf } from './funnel.js'
import { LAUNCH_TARGETS_KEY, readyCountries, storedTargets } from './launch.js'

/** The growth store, and what the other parts of this store ask of it on their own connections. */
export interface PostgresGrowth extends GrowthStore {
  targetsOn(db: Queryable): Promise<ReturnType<typeof storedTargets>>
  countsOn(db: Queryable, country?: string | null): Promise<CountryCount[]>
  readyOn(db: Queryable): Promise<string[]>
  topInvitersOn(db: Queryable, limit: number): Promise<{ id: number; email: string; joined: number; confirmed: number }[]>
}

/** Today in UTC, as PostgreSQL's date. */
const TODAY = `(now() AT TIME ZONE 'UTC')::date`

/**
 * A flush of counted views in one statement: the visitors not yet seen that day go into
 * visitor_hashes (every instance shares it, so one visitor counts once), and each (day, source)
 * adds its views and its new visitors.
 */
const ADD_VIEWS = `
  WITH views AS (
    SELECT * FROM unnest($1::date[], $2::text[], $3::int[]) AS v(day, source, views)
  ), candidates AS (
    SELECT * FROM unnest($4::date[], $5::text[], $6::bytea[]) AS c(day, source, hash)
  ), fresh AS (
    INSERT INTO visitor_hashes (day, hash) SELECT day, hash FROM candidates ORDER BY day, hash
    ON CONFLICT DO NOTHING
    RETURNING day, hash
  ), counted AS (
    SELECT candidates.day, candidates.source, count(*)::int AS visitors
    FROM candidates JOIN fresh ON fresh.day = candidates.day AND fresh.hash = candidates.hash GROUP BY 1, 2
  )
  INSERT INTO page_views AS p (day, source, views, visitors)
  SELECT views.day, views.source, views.views, coalesce(counted.visitors, 0)
  FROM views LEFT JOIN counted ON counted.day = views.day AND counted.source = views.source
  ORDER BY views.day, views.source
  ON CONFLICT (day, source) DO UPDATE SET views = p.views + excluded.views, visitors = p.visitors + excluded.visitors`

export function createPostgresGrowth(pool: pg.Pool, run: Run, { live }: { live: () => Promise<boolean> }): PostgresGrowth {
  const targetsOn = async (db: Queryable) => {
    const result = await db.query<{ value: unknown }>('SELECT value FROM settings WHERE key = $1', [LAUNCH_TARGETS_KEY])
    return storedTargets(result.rows[0]?.value)
  }
  // The countries' counts and those waiting: the people tallies (db/postgres/017), not the rows.
  const countsOn = async (db: Queryable, country: string | null = null) =>
    countryCountsOf(peopleOf(await readTallies(db, PEOPLE_TALLIES)), country)
  const topInvitersOn = async (db: Queryable, limit: number) =>
    (
      await db.query<{ id: number; email: string; joined: number; confirmed: number }>(
        `SELECT inviter.id::int AS id, inviter.email, count(*)::int AS joined, count(invitee.invite_credited_at)::int AS confirmed
         FROM waitlist AS invitee JOIN waitlist AS inviter ON inviter.id = invitee.invited_by
         GROUP BY inviter.id ORDER BY confirmed DESC, joined DESC, inviter.id LIMIT $1`,
        [limit],
      )
    ).rows
  // The day's key, once read or made, is kept by this process until the day is over.
  const keys = new Map<string, Buffer>()
  // The cohorts: the rows, kept a while at scale (shared/figure-cache.ts).
  const cohortsOf = createFigureCache(
    (key: string) =>
      countOffPath(pool, async (db) => {
        const [since, until, breed] = JSON.parse(key) as [string, string, string | null]
        // Each day's sign-ups as a cohort: how many went on to confirm, to tell their profile, to bring a confirmed sign-up.
        const cohortsPerDay = await db.query<Omit<FunnelDay, 'views' | 'visitors'>>(
          `SELECT to_char(created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD') AS day, count(*)::int AS signups, count(confirmed_at)::int AS confirmed,
         count(*) FILTER (WHERE role IS NOT NULL OR country IS NOT NULL OR EXISTS (SELECT 1 FROM signup_breeds WHERE signup_id = waitlist.id))::int AS profiled,
         count(*) FILTER (WHERE EXISTS (SELECT 1 FROM waitlist AS invitee WHERE invitee.invited_by = waitlist.id AND invitee.confirmed_at IS NOT NULL))::int AS inviters
       FROM waitlist
       WHERE created_at >= $1::date AT TIME ZONE 'UTC' AND created_at < ($2::date + 1) AT TIME ZONE 'UTC' AND ($3::text IS NULL OR EXISTS (SELECT 1 FROM signup_breeds WHERE signup_breeds.signup_id = waitlist.id AND signup_breeds.breed = $3))
       GROUP BY 1`,
          [since, until, breed],
        )
        // A partner's sign-ups are one source, named by the partner (docs/decisions/025-partners.md).
        const cohortsPerSource = await db.query<Pick<FunnelSource, 'source' | 'partner' | 'signups' | 'confirmed'>>(
          `SELECT coalesce(partners.name, cohort.source) AS source, cohort.partner, cohort.signups, cohort.confirmed FROM (
         SELECT CASE WHEN partner_id IS NULL THEN coalesce(utm_source, referrer, '${DIRECT_SOURCE}') END AS source, partner_id AS partner,
           count(*)::int AS signups, count(confirmed_at)::int AS confirmed
         FROM waitlist
         WHERE created_at >= $1::date AT TIME ZONE 'UTC' AND created_at < ($2::date + 1) AT TIME ZONE 'UTC' AND ($3::text IS NULL OR EXISTS (SELECT 1 FROM signup_breeds WHERE signup_breeds.signup_id = waitlist.id AND signup_breeds.breed = $3))
         GROUP BY 1, 2
       ) AS cohort LEFT JOIN partners ON partners.id = cohort.partner`,
          [since, until, breed],
        )
        return { perDay: cohortsPerDay.rows, perSource: cohortsPerSource.rows }
      }),
    { maxAgeMs: FIGURES_MAX_AGE_MS, live },
  )
  return {
    targetsOn,
    countsOn,
    readyOn: async (db) => readyCountries(await countsOn(db), await targetsOn(db)),
    topInvitersOn,
    forgetPastDays: () =>
      run(async () => {
        const today = new Date().toISOString().slice(0, 10)
        for (const day of [...keys.keys()]) if (day < today) keys.delete(day)
        await pool.query(`DELETE FROM visitor_hashes WHERE day < ${TODAY}`)
        await pool.query(`DELETE FROM visitor_day_keys WHERE day < ${TODAY}`)
      }),
    launchTargets: () => run(() => targetsOn(pool)),
    setLaunchTargets: (targets, audit) =>
      run(() =>
        inTransaction(pool, async (client) => {
          await client.query(
            `INSERT INTO settings (key, value, updated_at) VALUES ($1, $2, now())
             ON CONFLICT (key) DO UPDATE SET value = excluded.value, updated_at = excluded.updated_at`,
            [LAUNCH_TARGETS_KEY, JSON.stringify(targets)],
          )
          if (audit) await writeAudit(client, audit)
        }),
      ),
    countryCounts: (country) => run(() => countsOn(pool, country ?? null)),
    waiting: () => run(async () => waitingOf(peopleOf(await readTallies(pool, PEOPLE_TALLIES)))),
    // The first instance to need the day's key makes it; every other one reads that one.
    visitorKey: (day) =>
      run(async () => {
        const known = keys.get(day)
        if (known) return known
        const result = await pool.query<{ secret: Buffer }>(
          `WITH made AS (INSERT INTO visitor_day_keys (day, secret) VALUES ($1, $2) ON CONFLICT (day) DO NOTHING RETURNING secret)
           SELECT secret FROM made UNION ALL SELECT secret FROM visitor_day_keys WHERE day = $1`,
          [day, randomBytes(32)],
        )
        const secret = result.rows[0]?.secret
        if (!secret) throw new Error(`visitor_day_keys: no key for ${day}`)
        keys.set(day, secret)
        return secret
      }),
    addViews: (batch) =>
      run(async () => {
        if (batch.length === 0) return
        const candidates = batch.flatMap((entry) => entry.visitors.map((hash) => ({ day: entry.day, source: entry.source, hash })))
        await pool.query(ADD_VIEWS, [
          batch.map((entry) => entry.day),
          batch.map((entry) => entry.source),
          batch.map((entry) => entry.views),
          candidates.map((c) => c.day),
          candidates.map((c) => c.source),
          candidates.map((c) => c.hash),
        ])
      }),
    funnel: (since, until, breed = null) =>
      run(async () => {
        const range = [since, until]
        const perDay = await pool.query<{ day: string; views: string; visitors: string }>(
          `SELECT to_char(day, 'YYYY-MM-DD') AS day, sum(views) AS views, sum(visitors) AS visitors
           FROM page_views WHERE day BETWEEN $1::date AND $2::date GROUP BY day`,
          range,
        )
        const perSource = await pool.query<{ source: string; views: string; visitors: string }>(
          'SELECT source, sum(views) AS views, sum(visitors) AS visitors FROM page_views WHERE day BETWEEN $1::date AND $2::date GROUP BY source',
          range,
        )
        const cohorts = await cohortsOf.get(JSON.stringify([since, until, breed]))
        return { ...funnelOf(perDay.rows, perSource.rows, cohorts.perDay, cohorts.perSource, since, until), countedAt: cohorts.countedAt }
      }),
    topInviters: (limit) => run(() => topInvitersOn(pool, limit)),
  }
}
