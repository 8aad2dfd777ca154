// The command line's growth commands (docs/decisions/015-growth.md): the launch targets
// (`launch-targets [--set FILE]`) and the funnel (`funnel [--since] [--until] [--format json]`),
// through the store, as the admin page does.
import { cliAudit, UsageError } from './cli-common.js'
import { readFileSync } from 'node:fs'
import { checkLaunchTargets, type Funnel, signupsPerVisit } from '../../contract/growth.js'
import { HttpError } from '../http/errors.js'
import type { WaitlistStore } from '../store/index.js'
import { funnelRange, namedHandOff } from './growth-routes.js'
import { DEFAULT_LOCALE } from '../../contract/locales.js'

const count = (n: number) => n.toLocaleString('en')
/** A share of a whole, or a dash when there is no whole. */
const rate = (part: number, whole: number) => (whole === 0 ? '-' : `${((part / whole) * 100).toFixed(1)} %`)
/** Sign-ups per visit: a rate, not a share of the visitors (contract/growth.ts). */
const perVisit = (signups: number, visitors: number) => signupsPerVisit(signups, visitors) ?? '-'

/** Prints the targets; with `--set FILE`, first replaces them with the file's (JSON, as the admin API takes them). */
export async function runLaunchTargets(store: WaitlistStore, file: string | undefined, out: (text: string) => void): Promise<number> {
  if (file !== undefined) {
    let input: unknown
    try {
      input = JSON.parse(readFileSync(file, 'utf8'))
    } catch (error) {
      throw new UsageError(`--set: cannot read JSON from "${file}" (${(error as Error).message})`)
    }
    const checked = checkLaunchTargets(input)
    if (!checked.ok) throw new UsageError(`--set: ${file}:\n  ${checked.problems.join('\n  ')}`)
    await store.growth.setLaunchTargets(
      checked.targets,
      cliAudit('settings changed', 'launch targets', { countries: Object.keys(checked.targets.countries).length }),
    )
  }
  out(`${JSON.stringify(await store.growth.launchTargets(), null, 2)}\n`)
  return 0
}

/** The funnel as a table (per day, then per source, with rates), or as the admin API's JSON. */
export async function printFunnel(
  store: WaitlistStore,
  options: { since?: string | undefined; until?: string | undefined; format: 'json' | 'table' },
  out: (text: string) => void,
): Promise<void> {
  let range: { since: string; until: string }
  try {
    range = funnelRange(options.since, options.until)
  } catch (error) {
    if (error instanceof HttpError) throw new UsageError(`--${error.message}`)
    throw error
  }
  const funnel: Funnel = {
    ...(await store.growth.funnel(range.since, range.until)),
    handOff: namedHandOff(await store.app.handOff(), DEFAULT_LOCALE),
  }
  if (options.format === 'json') {
    out(`${JSON.stringify(funnel, null, 2)}\n`)
    return
  }
  const columns = ['views', 'visitors', 'signups', 'confirmed', 'profiled', 'inviters'] as const
  const lines = [`funnel ${range.since} to ${range.until} (UTC days; sign-ups counted by the day they joined)`, '']
  lines.push(`  ${'day'.padEnd(10)}${columns.map((c) => c.padStart(10)).join('')}${'per visit'.padStart(10)}${'confirmed'.padStart(11)}`)
  const total = { views: 0, visitors: 0, signups: 0, confirmed: 0, profiled: 0, inviters: 0 }
  for (const day of funnel.days) {
    for (const c of columns) total[c] += day[c]
    lines.push(
      `  ${day.day}${columns.map((c) => count(day[c]).padStart(10)).join('')}${perVisit(day.signups, day.visitors).padStart(10)}${rate(day.confirmed, day.signups).padStart(11)}`,
    )
  }
  lines.push(
    `  ${'total'.padEnd(10)}${columns.map((c) => count(total[c]).padStart(10)).join('')}${perVisit(total.signups, total.visitors).padStart(10)}${rate(total.confirmed, total.signups).padStart(11)}`,
  )
  lines.push(
    '',
    '  per visit: sign-ups per visit of the page, a rate (a sign-up sent straight to the API visited no page); confirmed: confirmed per sign-up',
    '',
    'by source:',
  )
  lines.push(
    `  ${'source'.padEnd(24)}${['views', 'visitors', 'signups', 'confirmed'].map((h) => h.padStart(10)).join('')}${'per visit'.padStart(10)}`,
  )
  for (const s of funnel.sources) {
    lines.push(
      `  ${(s.partner === null ? s.source : `${s.source} (partner)`).slice(0, 23).padEnd(24)}${[s.views, s.visitors, s.signups, s.confirmed].map((n) => count(n).padStart(10)).join('')}${perVisit(s.signups, s.visitors).padStart(10)}`,
    )
  }
  // Into the app: people, counted when it happened (not by the days above).
  const handOff = funnel.handOff
  lines.push('', 'into the app (people, since the first app link was mailed):')
  lines.push(`  ${''.padEnd(24)}${['invited', 'opened', 'claimed'].map((h) => h.padStart(10)).join('')}${'claimed'.padStart(9)}`)
  const handOffLine = (name: string, row: { invited: number; opened: number; claimed: number }) =>
    `  ${name.slice(0, 23).padEnd(24)}${[row.invited, row.opened, row.claimed].map((n) => count(n).padStart(10)).join('')}${rate(row.claimed, row.invited).padStart(9)}`
  lines.push(handOffLine('everyone', handOff))
  for (const c of handOff.countries) lines.push(handOffLine(c.country || '(no country)', c))
  out(`${lines.join('\n')}\n`)
}
