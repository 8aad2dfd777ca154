// Growth in SQLite (docs/decisions/015-growth.md): launch targets, the countries' counts, views
// and visitors counted per day, the funnel, the top inviters.
import type Database from 'better-sqlite3'
import { randomBytes } from 'node:crypto'
import { DIRECT_SOURCE, type FunnelDay, type FunnelSource } from '../../../contract/growth.js'
import { now, type Run, utcDay, auditWriter } from '../shared/sqlite.js'
import type { CountryCount, GrowthStore, ViewBatch } from '../types.js'
import { countryCountsOf, PEOPLE_TALLIES, peopleOf, waitingOf } from '../tallies/people.js'
import type { SqliteTallies } from '../tallies/sqlite.js'
import { createFigureCache, FIGURES_MAX_AGE_MS } from '../shared/figure-cache.js'
import type { SqliteRead } from '../shared/sqlite-reader.js'
import { funnelOf } from './funnel.js'
import { LAUNCH_TARGETS_KEY, readyCountries, storedTargets } from './launch.js'

/** The growth store, and what the other parts of this store ask of it inside their own transactions. */
export interface SqliteGrowth extends GrowthStore {
  targetsNow(): ReturnType<typeof storedTargets>
  countsNow(): CountryCount[]
  readyNow(): string[]
  topInvitersNow(limit: number): { id: number; email: string; joined: number; confirmed: number }[]
  forgetPastDaysNow(): void
}

/** The sign-ups whose links brought the most confirmed sign-ups (`?`: how many). */
export const TOP_INVITERS_SQL = `SELECT inviter.id, inviter.email, count(*) AS joined, count(invitee.invite_credited_at) AS confirmed
  FROM waitlist AS invitee JOIN waitlist AS inviter ON inviter.id = invitee.invited_by
  GROUP BY inviter.id ORDER BY confirmed DESC, joined DESC, inviter.id LIMIT ?`

// Each day's sign-ups as a cohort: how many of them went on to confirm, to tell their profile, to bring a confirmed sign-up.
const COHORTS_PER_DAY = `SELECT substr(created_at, 1, 10) AS day, count(*) AS signups, count(confirmed_at) AS confirmed,
    coalesce(sum(role IS NOT NULL OR country IS NOT NULL OR EXISTS (SELECT 1 FROM signup_breeds WHERE signup_id = waitlist.id)), 0) AS profiled,
    coalesce(sum(EXISTS (SELECT 1 FROM waitlist AS invitee WHERE invitee.invited_by = waitlist.id AND invitee.confirmed_at IS NOT NULL)), 0) AS inviters
  FROM waitlist WHERE created_at >= @start AND created_at < @end AND (@breed IS NULL OR waitlist.id IN (SELECT signup_id FROM signup_breeds WHERE breed = @breed)) GROUP BY day`
// A partner's sign-ups are one source, named by the partner (docs/decisions/025-partners.md).
const COHORTS_PER_SOURCE = `SELECT coalesce(partners.name, cohort.source) AS source, cohort.partner, cohort.signups, cohort.confirmed FROM (
    SELECT CASE WHEN partner_id IS NULL THEN coalesce(utm_source, referrer, '${DIRECT_SOURCE}') END AS source, partner_id AS partner,
      count(*) AS signups, count(confirmed_at) AS confirmed
    FROM waitlist WHERE created_at >= @start AND created_at < @end AND (@breed IS NULL OR waitlist.id IN (SELECT signup_id FROM signup_breeds WHERE breed = @breed))
    GROUP BY 1, 2
  ) AS cohort LEFT JOIN partners ON partners.id = cohort.partner`

/** How many visitors a day is remembered for (in memory); past that, views still count, visitors not. */
const MAX_VISITORS_A_DAY = 1_000_000

export function createSqliteGrowth(
  db: Database.Database,
  run: Run,
  tallies: SqliteTallies,
  { read, live }: { read: SqliteRead; live: () => boolean },
): SqliteGrowth {
  // The countries' counts and those waiting: the people tallies (db/sqlite/017), not the rows.
  const people = () => peopleOf(tallies.readNow(PEOPLE_TALLIES))
  const writeAudit = auditWriter(db)
  const setting = db.prepare('SELECT value FROM settings WHERE key = ?').pluck()
  const putSetting = db.prepare(
    `INSERT INTO settings (key, value, updated_at) VALUES (@key, @value, @now)
     ON CONFLICT (key) DO UPDATE SET value = excluded.value, updated_at = excluded.updated_at`,
  )
  const topInviters = db.prepare(TOP_INVITERS_SQL)
  const addView = db.prepare(
    `INSERT INTO page_views (day, source, views, visitors) VALUES (@day, @source, @views, @visitors)
     ON CONFLICT (day, source) DO UPDATE SET views = views + excluded.views, visitors = visitors + excluded.visitors`,
  )
  const viewsPerDay = db.prepare(
    'SELECT day, sum(views) AS views, sum(visitors) AS visitors FROM page_views WHERE day >= @since AND day <= @until GROUP BY day',
  )
  const viewsPerSource = db.prepare(
    'SELECT source, sum(views) AS views, sum(visitors) AS visitors FROM page_views WHERE day >= @since AND day <= @until GROUP BY source',
  )
  // The cohorts: the rows, read on the reader's thread, kept a while at scale (shared/figure-cache.ts).
  const cohorts = createFigureCache(
    async (key: string) => {
      const range = JSON.parse(key) as Record<string, unknown>
      const [perDay, perSource] = await Promise.all([
        read<Omit<FunnelDay, 'views' | 'visitors'>>(COHORTS_PER_DAY, range),
        read<Pick<FunnelSource, 'source' | 'partner' | 'signups' | 'confirmed'>>(COHORTS_PER_SOURCE, range),
      ])
      return { perDay, perSource }
    },
    { maxAgeMs: FIGURES_MAX_AGE_MS, live },
  )
  // The day's key and the hashes seen: this process's memory only (one process per SQLite file).
  const keys = new Map<string, Buffer>()
  const seen = new Map<string, Set<string>>()
  const addViews = db.transaction((batch: readonly ViewBatch[]) => {
    for (const entry of batch) {
      let day = seen.get(entry.day)
      if (!day) seen.set(entry.day, (day = new Set()))
      let visitors = 0
      for (const hash of entry.visitors) {
        const key = hash.toString('base64')
        if (day.has(key) || day.size >= MAX_VISITORS_A_DAY) continue
        day.add(key)
        visitors++
      }
      addView.run({ day: entry.day, source: entry.source, views: entry.views, visitors })
    }
  })
  const targetsNow = () => storedTargets(setting.get(LAUNCH_TARGETS_KEY))
  const countsNow = (country: string | null = null) => countryCountsOf(people(), country)
  const topInvitersNow = (limit: number) => topInviters.all(limit) as { id: number; email: string; joined: number; confirmed: number }[]
  const forgetPastDaysNow = () => {
    const today = new Date().toISOString().slice(0, 10)
    for (const day of [...keys.keys()]) if (day < today) keys.delete(day)
    for (const day of [...seen.keys()]) if (day < today) seen.delete(day)
  }
  return {
    targetsNow,
    countsNow,
    readyNow: () => readyCountries(countsNow(), targetsNow()),
    topInvitersNow,
    forgetPastDaysNow,
    forgetPastDays: async () => forgetPastDaysNow(),
    launchTargets: () => run(targetsNow),
    setLaunchTargets: (targets, audit) =>
      run(() =>
        db.transaction(() => {
          putSetting.run({ key: LAUNCH_TARGETS_KEY, value: JSON.stringify(targets), now: now() })
          if (audit) writeAudit(audit)
        })(),
      ),
    countryCounts: (country) => run(() => countsNow(country ?? null)),
    waiting: () => run(() => waitingOf(people())),
    visitorKey: async (day) => {
      forgetPastDaysNow()
      let key = keys.get(day)
      if (!key) keys.set(day, (key = randomBytes(32)))
      return key
    },
    addViews: (batch) =>
      run(() => {
        forgetPastDaysNow()
        addViews(batch)
      }),
    funnel: async (since, until, breed = null) => {
      const range = { since, until, start: `${since}T00:00:00.000Z`, end: utcDay(`${until}T00:00:00.000Z`).end, breed }
      const views = await run(() => ({
        perDay: viewsPerDay.all(range) as Pick<FunnelDay, 'day' | 'views' | 'visitors'>[],
        perSource: viewsPerSource.all(range) as Pick<FunnelSource, 'source' | 'views' | 'visitors'>[],
      }))
      const { perDay, perSource, countedAt } = await cohorts.get(JSON.stringify(range))
      return { ...funnelOf(views.perDay, views.perSource, perDay, perSource, since, until), countedAt }
    },
    topInviters: (limit) => run(() => topInvitersNow(limit)),
  }
}
