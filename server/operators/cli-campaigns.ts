// The command line's launch-day commands: the demand map (`segments`) and campaigns (`campaign
// create | send | status [--follow] | pause | resume | list`). The running server sends the mails;
// these commands queue, watch and hold them through the store, as the admin page does.
import { cliAudit, UsageError } from './cli-common.js'
import { readFileSync } from 'node:fs'
import type { CampaignProgress, CampaignRequest, Segment } from '../../contract/campaigns.js'
import { DEFAULT_LOCALE, LOCALES, type Locale } from '../../contract/locales.js'
import { isCountryCode } from '../../contract/countries.js'
import { ROLES, type Role, VISITOR_PATH } from '../../contract/visitor.js'
import type { Config } from '../config.js'
import { campaignWords, renderCampaign } from '../mail/campaign.js'
import { mailCopy } from '../mail/content.js'
import type { WaitlistStore } from '../store/index.js'
import { recipients as audience } from '../../contract/counted.js'

export interface CampaignOptions {
  subject?: string | undefined
  'markdown-file'?: string | undefined
  role?: string[] | undefined
  country?: string[] | undefined
  breed?: string[] | undefined
  source?: string[] | undefined
  since?: string | undefined
  until?: string | undefined
  'include-unconfirmed'?: boolean | undefined
  'invited-at-least'?: string | undefined
  'ready-countries'?: boolean | undefined
  locale?: string[] | undefined
  /** --subject-de, --markdown-file-de and so on: a language besides English. */
  [translation: `subject-${string}` | `markdown-file-${string}`]: string | undefined
  'dry-run'?: boolean | undefined
  follow?: boolean | undefined
}

export interface Io {
  out: (text: string) => void
  /** Progress goes here: a bar on a terminal, plain lines otherwise. */
  err: NodeJS.WriteStream | { write: (text: string) => boolean; isTTY?: boolean }
  sleep: (ms: number) => Promise<void>
}

const moment = (option: string, value: string | undefined) => {
  if (value === undefined) return undefined
  if (Number.isNaN(Date.parse(value))) throw new UsageError(`--${option}: expected a date such as 2026-11-01, got "${value}"`)
  return value
}

/** The segment the options describe, checked as the admin API checks it. */
export function segmentOf(options: CampaignOptions): Segment {
  const roles = (options.role ?? []).map((role) => {
    if (!(ROLES as readonly string[]).includes(role)) throw new UsageError(`--role: expected one of ${ROLES.join(', ')}, got "${role}"`)
    return role as Role
  })
  const countries = (options.country ?? []).map((country) => {
    const code = country.toUpperCase()
    if (!isCountryCode(code)) throw new UsageError(`--country: expected an ISO 3166-1 code such as GB, got "${country}"`)
    return code
  })
  const segment: Segment = {}
  if (roles.length > 0) segment.roles = roles
  if (countries.length > 0) segment.countries = countries
  if (options.breed?.length) segment.breeds = options.breed
  if (options.source?.length) segment.sources = options.source
  const since = moment('since', options.since)
  const until = moment('until', options.until)
  if (since) segment.since = since
  if (until) segment.until = until
  if (options['include-unconfirmed']) segment.includeUnconfirmed = true
  const invited = options['invited-at-least']
  if (invited !== undefined) {
    if (!/^\d{1,7}$/.test(invited)) throw new UsageError(`--invited-at-least: expected a whole number, got "${invited}"`)
    segment.invitedAtLeast = Number(invited)
  }
  if (options['ready-countries']) segment.readyCountries = true
  const locales = (options.locale ?? []).map((locale) => {
    if (!(LOCALES as readonly string[]).includes(locale))
      throw new UsageError(`--locale: expected one of ${LOCALES.join(', ')}, got "${locale}"`)
    return locale as Locale
  })
  if (locales.length > 0) segment.locales = locales
  return segment
}

function campaignId(value: string | undefined, command: string): number {
  const id = Number(value)
  if (!Number.isInteger(id) || id < 1) throw new UsageError(`campaign ${command}: which campaign? e.g. campaign ${command} 3`)
  return id
}

const count = (n: number) => n.toLocaleString('en')

function progressLine(p: CampaignProgress): string {
  return `campaign ${p.id} (${p.status}): sent ${count(p.sent)} of ${count(p.recipients)}, queued ${count(p.queued)}, failed ${count(p.failed)}, bounced ${count(p.bounced)}`
}

function bar(p: CampaignProgress, width = 30): string {
  const done = p.recipients === 0 ? 1 : (p.sent + p.failed + p.bounced) / p.recipients
  const filled = Math.round(done * width)
  return `[${'#'.repeat(filled)}${'-'.repeat(width - filled)}] ${String(Math.round(done * 100)).padStart(3)}% ${progressLine(p)}`
}

export async function runCampaign(
  store: WaitlistStore,
  config: Pick<Config, 'SITE_URL' | 'PORT' | 'APP_STORE_URL'>,
  product: string,
  [command, ...rest]: string[],
  options: CampaignOptions,
  io: Io,
): Promise<number> {
  switch (command) {
    case 'create': {
      const subject = options.subject?.trim()
      if (!subject) throw new UsageError('campaign create: --subject is needed')
      const file = options['markdown-file']
      if (!file) throw new UsageError('campaign create: --markdown-file is needed (the message, in Markdown)')
      const read = (path: string, option: string) => {
        try {
          return readFileSync(path, 'utf8')
        } catch {
          throw new UsageError(`--${option}: cannot read "${path}"`)
        }
      }
      // English, and each other language given as --subject-de with --markdown-file-de.
      const subjects: Record<string, string> = { en: subject }
      const markdowns: Record<string, string> = { en: read(file, 'markdown-file') }
      for (const locale of LOCALES.filter((l) => l !== DEFAULT_LOCALE)) {
        const localSubject = options[`subject-${locale}`]
        const localFile = options[`markdown-file-${locale}`]
        if (localSubject !== undefined) subjects[locale] = localSubject
        if (localFile !== undefined) markdowns[locale] = read(localFile, `markdown-file-${locale}`)
      }
      const checked = campaignWords(
        { subject: subjects as CampaignRequest['subject'], markdown: markdowns as CampaignRequest['markdown'] },
        config.APP_STORE_URL,
      )
      if (!checked.ok) throw new UsageError(checked.problems.join('\n'))
      const { en: words, ...translations } = checked.words

      const segment = segmentOf(options)
      const recipients = await store.campaigns.count(segment)
      if (options['dry-run']) {
        const site = config.SITE_URL ?? `http://localhost:${config.PORT}`
        const page = `${site}${VISITOR_PATH}/your-own-link`
        io.out(`dry run: ${audience(recipients)}; nothing was saved\n`)
        // Each language it is written in, as its recipients will get it.
        for (const [locale, localWords] of Object.entries(checked.words) as [Locale, { subject: string; markdown: string }][]) {
          const links = { page, unsubscribe: `${page}/unsubscribe`, appStore: config.APP_STORE_URL ?? site }
          const rendered = renderCampaign(localWords, links, mailCopy(product, locale))
          io.out(`\n--- ${locale} ---\nSubject: ${rendered.subject}\n\n${rendered.text}`)
        }
        return 0
      }
      const id = await store.campaigns.create({ ...words, translations, segment })
      io.out(`campaign ${id}: a draft for ${audience(recipients)}\nsend it with: npm run -s waitlist -- campaign send ${id}\n`)
      return 0
    }
    case 'send': {
      const id = campaignId(rest[0], 'send')
      const sent = await store.campaigns.send(id, cliAudit('campaign sent', `campaign ${id}`))
      if (!sent) throw new UsageError(`campaign send: there is no campaign ${id}`)
      io.out(
        sent.queued > 0
          ? `campaign ${id}: ${count(sent.queued)} mails queued; the running server sends them at MAIL_RATE_PER_SECOND\nfollow with: npm run -s waitlist -- campaign status ${id} --follow\n`
          : `campaign ${id}: already sent to ${audience(sent.recipients)}; nobody was queued twice\n`,
      )
      return 0
    }
    case 'status': {
      const id = campaignId(rest[0], 'status')
      let progress = await store.campaigns.progress(id)
      if (!progress) throw new UsageError(`campaign status: there is no campaign ${id}`)
      if (!options.follow) {
        io.out(`${progressLine(progress)}\n`)
        return 0
      }
      // A bar redrawn in place on a terminal; a line whenever the figures change otherwise.
      const tty = Boolean(io.err.isTTY)
      let last = ''
      for (;;) {
        const line = tty ? bar(progress) : progressLine(progress)
        if (line !== last) io.err.write(tty ? `\r${line}` : `${line}\n`)
        last = line
        if (progress.status === 'finished' || progress.status === 'draft') break
        await io.sleep(1000)
        progress = (await store.campaigns.progress(id)) ?? progress
      }
      if (tty) io.err.write('\n')
      return 0
    }
    case 'pause':
    case 'resume': {
      const id = campaignId(rest[0], command)
      const audit = cliAudit(command === 'pause' ? 'campaign paused' : 'campaign resumed', `campaign ${id}`)
      if (!(await store.campaigns.setPaused(id, command === 'pause', audit)))
        throw new UsageError(`campaign ${command}: there is no campaign ${id}`)
      const progress = await store.campaigns.progress(id)
      if (progress) io.out(`${progressLine(progress)}\n`)
      return 0
    }
    case 'list': {
      const campaigns = await store.campaigns.list()
      if (campaigns.length === 0) io.out('no campaigns yet\n')
      for (const c of campaigns)
        io.out(
          `${String(c.id).padStart(4)}  ${c.status.padEnd(8)}  ${`${count(c.sent)}/${count(c.recipients)}`.padStart(13)}  ${c.subject}\n`,
        )
      return 0
    }
    default:
      throw new UsageError(`unknown campaign command "${command ?? ''}": create, send, status, pause, resume or list`)
  }
}

/** The demand map as text: who waits where, and for which breeds. */
export async function printSegments(store: WaitlistStore, out: (text: string) => void): Promise<void> {
  const s = await store.segments()
  const lines = [
    `total ${count(s.total)}, confirmed ${count(s.confirmed)}, unsubscribed ${count(s.unsubscribed)}`,
    '',
    'by country (subscribed):',
  ]
  lines.push(`  ${'country'.padEnd(8)}${['breeders', 'owners', 'clubs', 'fans', 'unsaid', 'total'].map((h) => h.padStart(9)).join('')}`)
  for (const c of s.byCountry) {
    lines.push(
      `  ${(c.country ?? '(none)').padEnd(8)}${[c.breeders, c.owners, c.clubs, c.enthusiasts, c.unsaid, c.total].map((n) => count(n).padStart(9)).join('')}`,
    )
  }
  lines.push('', 'by role and country (confirmed / not):')
  for (const r of s.byRoleCountry)
    lines.push(
      `  ${(r.role ?? '(none)').padEnd(11)} ${(r.country ?? '(none)').padEnd(7)} ${count(r.confirmed).padStart(8)} / ${count(r.unconfirmed)}`,
    )
  lines.push('', 'top breeds (breeders / owners / others):')
  for (const b of s.topBreeds)
    lines.push(`  ${count(b.total).padStart(8)}  ${b.breed}  (${count(b.breeders)} / ${count(b.owners)} / ${count(b.others)})`)
  lines.push('', 'launch meters (confirmed breeders and owners against the targets):')
  for (const m of s.meters)
    lines.push(
      `  ${m.country.padEnd(4)} breeders ${`${count(m.breeders)}/${count(m.target.breeders)}`.padStart(13)}  owners ${`${count(m.owners)}/${count(m.target.owners)}`.padStart(13)}${m.ready ? '  ready' : ''}`,
    )
  lines.push('', 'top inviters (joined through their link / confirmed):')
  for (const i of s.topInviters) lines.push(`  ${count(i.joined).padStart(6)} / ${count(i.confirmed).padEnd(6)} ${i.email} (#${i.id})`)
  out(`${lines.join('\n')}\n`)
}
