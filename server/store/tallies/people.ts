// Counts of people, read from tallies (db/<dialect>/017_counts_of_people.sql) instead of a million
// rows: every sign-up is one count under the key `role|country|locale|platform|status` ('' where
// not said), and every day's and source's sign-ups one more. The demand map's totals, the launch
// meters, the landing page's and the visitor's figures and the stats add these rows up: a few
// hundred of them at a million sign-ups, exact the moment a row changed.
import type { Segments } from '../../../contract/campaigns.js'
import { byCode } from '../../../contract/order.js'
import type { Stats } from '../../../contract/admin-api.js'
import type { Locale } from '../../../contract/locales.js'
import type { Platform } from '../../../contract/app.js'
import type { Role } from '../../../contract/visitor.js'
import type { CountryCount } from '../types.js'
import type { TallyKind, TallyRow } from './shared.js'

/** What the people tallies are kept in (the fields: 'n' for people, 'signups' for days and sources). */
export const PEOPLE_TALLIES: readonly TallyKind[] = ['people']
export const SIGNUP_TALLIES: readonly TallyKind[] = ['signups-day', 'signups-source']

/**
 * Where a sign-up stands: confirmed and subscribed (waiting), not confirmed yet, or stopped its mail;
 * `imported`: brought in by an import and not confirmed since (db/<dialect>/019), counted apart from
 * those who joined themselves. Once confirmed, an imported person waits as anyone does.
 */
type Standing = 'waiting' | 'unconfirmed' | 'imported' | 'stopped' | 'stopped-unconfirmed'

interface People {
  role: Role | null
  country: string | null
  locale: Locale
  platform: Platform | null
  standing: Standing
  n: number
}

/** The 'people' rows as records. */
export function peopleOf(rows: readonly TallyRow[]): People[] {
  const people: People[] = []
  for (const row of rows) {
    if (row.kind !== 'people' || row.field !== 'n' || Number(row.n) === 0) continue
    const [role = '', country = '', locale = '', platform = '', standing = ''] = row.key.split('|')
    people.push({
      role: (role || null) as Role | null,
      country: country || null,
      locale: locale as Locale,
      platform: (platform || null) as Platform | null,
      standing: standing as Standing,
      n: Number(row.n),
    })
  }
  return people
}

const confirmed = (p: People) => p.standing === 'waiting' || p.standing === 'stopped'
/** Those who joined themselves and have not stopped e-mails: what the demand map's figures count. */
const subscribed = (p: People) => p.standing === 'waiting' || p.standing === 'unconfirmed'
const stopped = (p: People) => p.standing === 'stopped' || p.standing === 'stopped-unconfirmed'

/** Adds each group's people up. */
function grouped<K, V>(people: readonly People[], keyOf: (p: People) => K, start: () => V, add: (sum: V, p: People) => void): Map<K, V> {
  const groups = new Map<K, V>()
  for (const p of people) {
    const key = keyOf(p)
    let sum = groups.get(key)
    if (sum === undefined) groups.set(key, (sum = start()))
    add(sum, p)
  }
  return groups
}

/** Confirmed, subscribed sign-ups per country (a country said), the most first: the launch meters. */
export function countryCountsOf(people: readonly People[], country: string | null = null): CountryCount[] {
  const waiting = people.filter((p) => p.standing === 'waiting' && p.country !== null && (country === null || p.country === country))
  const counts = grouped(
    waiting,
    (p) => p.country ?? '',
    () => ({ confirmed: 0, breeders: 0, owners: 0 }),
    (sum, p) => {
      sum.confirmed += p.n
      if (p.role === 'breeder') sum.breeders += p.n
      if (p.role === 'owner') sum.owners += p.n
    },
  )
  return [...counts]
    .map(([c, sum]) => ({ country: c, ...sum }))
    .filter((c) => c.confirmed > 0)
    .sort((a, b) => b.confirmed - a.confirmed || compare(a.country, b.country))
}

/** Confirmed, subscribed sign-ups. */
export const waitingOf = (people: readonly People[]) => people.reduce((sum, p) => sum + (p.standing === 'waiting' ? p.n : 0), 0)

/** Every sign-up, however it stands. */
export const everyoneOf = (people: readonly People[]) => people.reduce((sum, p) => sum + p.n, 0)

/** The demand map's figures of everyone (no breed asked): what the rows' GROUP BYs answered, from the tallies. */
export function demandOf(people: readonly People[]): Pick<
  Segments,
  'total' | 'confirmed' | 'unsubscribed' | 'byRoleCountry' | 'byPlatform' | 'byLocale' | 'imported'
> & {
  byCountry: Omit<Segments['byCountry'][number], 'claimed'>[]
} {
  const open = people.filter(subscribed)
  const byRoleCountry = [
    ...grouped(
      open,
      (p) => `${p.role ?? ''}|${p.country ?? ''}`,
      () => ({ role: null as Role | null, country: null as string | null, confirmed: 0, unconfirmed: 0 }),
      (sum, p) => {
        sum.role = p.role
        sum.country = p.country
        if (confirmed(p)) sum.confirmed += p.n
        else sum.unconfirmed += p.n
      },
    ).values(),
  ]
    .sort((a, b) => b.confirmed + b.unconfirmed - (a.confirmed + a.unconfirmed) || compare(a.country, b.country) || compare(a.role, b.role))
    .slice(0, 500)
  const byCountry = [
    ...grouped(
      open,
      (p) => p.country,
      () => ({ breeders: 0, owners: 0, clubs: 0, enthusiasts: 0, unsaid: 0, total: 0, ios: 0, android: 0 }),
      (sum, p) => {
        if (p.role === 'breeder') sum.breeders += p.n
        else if (p.role === 'owner') sum.owners += p.n
        else if (p.role === 'club') sum.clubs += p.n
        else if (p.role === 'enthusiast') sum.enthusiasts += p.n
        else sum.unsaid += p.n
        sum.total += p.n
        if (p.platform === 'ios') sum.ios += p.n
        if (p.platform === 'android') sum.android += p.n
      },
    ),
  ]
    .map(([country, sum]) => ({ country, ...sum }))
    .sort((a, b) => b.total - a.total || compare(a.country, b.country))
    .slice(0, 50)
  const byPlatform = [
    ...grouped(
      open,
      (p) => p.platform,
      () => ({ total: 0, confirmed: 0 }),
      (sum, p) => {
        sum.total += p.n
        if (confirmed(p)) sum.confirmed += p.n
      },
    ),
  ]
    .map(([platform, sum]) => ({ platform, ...sum }))
    .sort((a, b) => b.total - a.total || Number(a.platform === null) - Number(b.platform === null) || compare(a.platform, b.platform))
  const byLocale = [
    ...grouped(
      open,
      (p) => p.locale,
      () => ({ total: 0, confirmed: 0 }),
      (sum, p) => {
        sum.total += p.n
        if (confirmed(p)) sum.confirmed += p.n
      },
    ),
  ]
    .map(([locale, sum]) => ({ locale, ...sum }))
    .sort((a, b) => b.total - a.total || compare(a.locale, b.locale))
  return {
    total: everyoneOf(people),
    confirmed: people.reduce((sum, p) => sum + (confirmed(p) ? p.n : 0), 0),
    unsubscribed: people.reduce((sum, p) => sum + (stopped(p) ? p.n : 0), 0),
    imported: importedOf(people),
    byRoleCountry,
    byCountry,
    byPlatform,
    byLocale,
  }
}

/** Imported people who never confirmed, per country (none said: null), the most first. */
function importedOf(people: readonly People[]): Segments['imported'] {
  const imported = people.filter((p) => p.standing === 'imported')
  const byCountry = [
    ...grouped(
      imported,
      (p) => p.country,
      () => ({ total: 0 }),
      (sum, p) => void (sum.total += p.n),
    ),
  ]
    .map(([country, sum]) => ({ country, total: sum.total }))
    .sort((a, b) => b.total - a.total || compare(a.country, b.country))
    .slice(0, 50)
  return { total: imported.reduce((sum, p) => sum + p.n, 0), byCountry }
}

/** The stats: sign-ups per day (oldest first) and per source (the most first, `limit` of them). */
export function statsOf(rows: readonly TallyRow[], limit: number): Stats {
  const perDay = rows
    .filter((row) => row.kind === 'signups-day' && Number(row.n) > 0)
    .map((row) => ({ day: row.key, count: Number(row.n) }))
    .sort((a, b) => compare(a.day, b.day))
  const perSource = rows
    .filter((row) => row.kind === 'signups-source' && Number(row.n) > 0)
    .map((row) => ({ source: row.key === '' ? null : row.key, count: Number(row.n) }))
    .sort((a, b) => b.count - a.count || Number(a.source === null) - Number(b.source === null) || compare(a.source, b.source))
    .slice(0, limit)
  return { total: perDay.reduce((sum, d) => sum + d.count, 0), perDay, perSource }
}

/** Text by code point, "not said" (null) last: PostgreSQL's order before (SQLite's SQL put null first), one order for both now. */
function compare(a: string | null, b: string | null): number {
  if (a === null || b === null) return Number(a === null) - Number(b === null)
  return byCode(a, b)
}
