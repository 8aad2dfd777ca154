// The funnel as both stores answer it: the views and visitors counted per day and source, beside
// each day's (and source's) sign-ups as a cohort, every day of the range listed (zeros included).
import { DIRECT_SOURCE, type Funnel, type FunnelDay, type FunnelSource } from '../../../contract/growth.js'

/** How many sources the funnel lists, the most visited (then the most signed-up) first. */
export const FUNNEL_SOURCES = 50

type Views = { views: number | string; visitors: number | string }

/** `since` and `until` are UTC days (YYYY-MM-DD), both included. */
export function funnelOf(
  viewsPerDay: readonly ({ day: string } & Views)[],
  viewsPerSource: readonly ({ source: string } & Views)[],
  cohortsPerDay: readonly Omit<FunnelDay, 'views' | 'visitors'>[],
  cohortsPerSource: readonly Pick<FunnelSource, 'source' | 'partner' | 'signups' | 'confirmed'>[],
  since: string,
  until: string,
): Omit<Funnel, 'handOff' | 'countedAt'> {
  const views = new Map(viewsPerDay.map((row) => [row.day, row]))
  const cohorts = new Map(cohortsPerDay.map((row) => [row.day, row]))
  const days: FunnelDay[] = []
  for (let time = Date.parse(`${since}T00:00:00Z`); time <= Date.parse(`${until}T00:00:00Z`); time += 86_400_000) {
    const day = new Date(time).toISOString().slice(0, 10)
    const seen = views.get(day)
    const cohort = cohorts.get(day)
    days.push({
      day,
      views: Number(seen?.views ?? 0),
      visitors: Number(seen?.visitors ?? 0),
      signups: Number(cohort?.signups ?? 0),
      confirmed: Number(cohort?.confirmed ?? 0),
      profiled: Number(cohort?.profiled ?? 0),
      inviters: Number(cohort?.inviters ?? 0),
    })
  }
  // A partner's sign-ups are one source of their own, named by the partner (its views are its site's, not counted here).
  const sources = new Map<string, FunnelSource>()
  const source = (name: string, partner: number | null = null) => {
    const key = partner === null ? `source:${name}` : `partner:${partner}`
    let entry = sources.get(key)
    if (!entry) sources.set(key, (entry = { source: name, partner, views: 0, visitors: 0, signups: 0, confirmed: 0 }))
    return entry
  }
  for (const row of viewsPerSource) Object.assign(source(row.source), { views: Number(row.views), visitors: Number(row.visitors) })
  for (const row of cohortsPerSource) {
    const partner = row.partner === null ? null : Number(row.partner)
    const entry = source(row.source || DIRECT_SOURCE, partner)
    entry.signups += Number(row.signups)
    entry.confirmed += Number(row.confirmed)
  }
  const ordered = [...sources.values()].sort(
    (a, b) => b.visitors - a.visitors || b.signups - a.signups || b.views - a.views || a.source.localeCompare(b.source),
  )
  return { days, sources: ordered.slice(0, FUNNEL_SOURCES) }
}
