// Growth in SQLite (docs/decisions/015-growth.md): launch targets, the countries' counts, views
// and visitors counted per day, the funnel, the top inviters.
import type Database from 'better-sqlite3'
import { randomBytes } from 'node:crypto'
import { DIRECT_SOURCE, type FunnelDay, type FunnelSource } from '../../../contract/growth.js'
import { now, type Run, utcDay, auditWriter } from '../shared/sqlite.js'
import type { CountryCount, GrowthStore, ViewBatch } from '../types.js'
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

/** How many visitors a day is remembered for (in memory); past that, views still count, visitors not. */
const MAX_VISITORS_A_DAY = 1_000_000

export function createSqliteGrowth(db: Database.Database, run: Run): SqliteGrowth {
  const writeAudit = auditWriter(db)
  const setting = db.prepare('SELECT value FROM settings WHERE key = ?').pluck()
  const putSetting = db.prepare(
    `INSERT INTO settings (key, value, updated_at) VALUES (@key, @value, @now)
     ON CONFLICT (key) DO UPDATE SET value = excluded.value, updated_at = excluded.updated_at`,
  )
  const counts = db.prepare(
    `SELECT country, count(*) AS confirmed, coalesce(sum(role = 'breeder'), 0) AS breeders, coalesce(sum(role = 'owner'), 0) AS owners
     FROM waitlist WHERE confirmed_at IS NOT NULL AND unsubscribed_at IS NULL AND country IS NOT NULL
       AND (@country IS NULL OR country = @country)
     GROUP BY country ORDER BY confirmed DESC, country`,
  )
  const waiting = db.prepare('SELECT count(*) FROM waitlist WHERE confirmed_at IS NOT NULL AND unsubscribed_at IS NULL').pluck()
  const topInviters = db.prepare(
    `SELECT inviter.id, inviter.email, count(*) AS joined, count(invitee.invite_credited_at) AS confirmed
     FROM waitlist AS invitee JOIN waitlist AS inviter ON inviter.id = invitee.invited_by
     GROUP BY inviter.id ORDER BY confirmed DESC, joined DESC, inviter.id LIMIT ?`,
  )
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
  // Each day's sign-ups as a cohort: how many of them went on to confirm, to tell their profile, to bring a confirmed sign-up.
  const cohortsPerDay = db.prepare(
    `SELECT substr(created_at, 1, 10) AS day, count(*) AS signups, count(confirmed_at) AS confirmed,
       coalesce(sum(role IS NOT NULL OR country IS NOT NULL OR EXISTS (SELECT 1 FROM signup_breeds WHERE signup_id = waitlist.id)), 0) AS profiled,
       coalesce(sum(EXISTS (SELECT 1 FROM waitlist AS invitee WHERE invitee.invited_by = waitlist.id AND invitee.confirmed_at IS NOT NULL)), 0) AS inviters
     FROM waitlist WHERE created_at >= @start AND created_at < @end AND (@breed IS NULL OR EXISTS (SELECT 1 FROM signup_breeds WHERE signup_breeds.signup_id = waitlist.id AND signup_breeds.breed = @breed)) GROUP BY day`,
  )
  const cohortsPerSource = db.prepare(
    `SELECT coalesce(utm_source, referrer, '${DIRECT_SOURCE}') AS source, count(*) AS signups, count(confirmed_at) AS confirmed
     FROM waitlist WHERE created_at >= @start AND created_at < @end AND (@breed IS NULL OR EXISTS (SELECT 1 FROM signup_breeds WHERE signup_breeds.signup_id = waitlist.id AND signup_breeds.breed = @breed)) GROUP BY 1`,
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
  const countsNow = (country: string | null = null) => counts.all({ country }) as CountryCount[]
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
    waiting: () => run(() => Number(waiting.get())),
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
    funnel: (since, until, breed = null) =>
      run(() => {
        const range = { since, until, start: `${since}T00:00:00.000Z`, end: utcDay(`${until}T00:00:00.000Z`).end, breed }
        return funnelOf(
          viewsPerDay.all(range) as Pick<FunnelDay, 'day' | 'views' | 'visitors'>[],
          viewsPerSource.all(range) as Pick<FunnelSource, 'source' | 'views' | 'visitors'>[],
          cohortsPerDay.all(range) as Omit<FunnelDay, 'views' | 'visitors'>[],
          cohortsPerSource.all(range) as Pick<FunnelSource, 'source' | 'signups' | 'confirmed'>[],
          since,
          until,
        )
      }),
    topInviters: (limit) => run(() => topInvitersNow(limit)),
  }
}
