// The command line's launch-day commands: the demand map (`segments`) and campaigns (`campaign
// create | send | status [--follow] | pause | resume | list`). The running server sends the mails;
// these commands queue, watch and hold them through the store, as the admin page does.
import { cliAudit, UsageError } from './cli-common.js'
import { readFileSync } from 'node:fs'
import { type CampaignProgress, type CampaignRequest, placeholdersIn, type Segment } from '../../contract/campaigns.js'
import { DEFAULT_LOCALE, LOCALES, type Locale } from '../../contract/locales.js'
import {
  expectedOf,
  isItemOf,
  SEGMENT,
  SEGMENT_FIELDS,
  type SegmentField,
  type SegmentFieldName,
  segmentProblems,
  tidySegment,
  TRISTATE_FLAG_VALUES,
} from '../../contract/segment.js'
import type { Config } from '../config.js'
import { campaignWords, renderCampaign } from '../mail/campaign.js'
import { storeUrlFor } from '../handoff/links.js'
import { mailCopy } from '../mail/content.js'
import { PUBLIC_SETTINGS_KEY, previewLinks, readPublicSettings } from '../mail/public-settings.js'
import type { WaitlistStore } from '../store/index.js'
import { counted, recipients as audience } from '../../contract/counted.js'

/** A field's option for parseArgs: a list's flag is given once per value, a switch takes none. */
type FlagOf<F> = F extends { kind: 'switch' }
  ? { type: 'boolean' }
  : F extends { kind: 'choice' | 'codes' | 'texts' }
    ? { type: 'string'; multiple: true }
    : { type: 'string' }
type SegmentFlags = { [N in SegmentFieldName as (typeof SEGMENT)[N]['flag']]: FlagOf<(typeof SEGMENT)[N]> }

const isList = (field: SegmentField) => field.kind === 'choice' || field.kind === 'codes' || field.kind === 'texts'

/** The segment's options, one per field of its definition (contract/segment.ts), for parseArgs. */
export const segmentFlags = Object.fromEntries(
  SEGMENT_FIELDS.map((name) => {
    const field: SegmentField = SEGMENT[name]
    return [
      field.flag,
      field.kind === 'switch' ? { type: 'boolean' } : isList(field) ? { type: 'string', multiple: true } : { type: 'string' },
    ]
  }),
) as SegmentFlags

/** The segment's options as parseArgs answers them. */
export type SegmentOptions = {
  [F in keyof SegmentFlags]?:
    (SegmentFlags[F] extends { type: 'boolean' } ? boolean : SegmentFlags[F] extends { multiple: true } ? string[] : string) | undefined
}

export interface CampaignOptions extends SegmentOptions {
  subject?: string | undefined
  'markdown-file'?: string | undefined
  /** --subject-de, --markdown-file-de and so on: a language besides English. */
  [translation: `subject-${string}` | `markdown-file-${string}`]: string | undefined
  'dry-run'?: boolean | undefined
  follow?: boolean | undefined
}

export interface Io {
  out: (text: string) => void
  /**
   * Where `status --follow` writes: stdout, as the status without it says its line (what was asked
   * for, so `> file` or a pipe keeps it), with a bar on a terminal and plain lines otherwise.
   */
  progress: NodeJS.WriteStream | { write: (text: string) => boolean; isTTY?: boolean }
  sleep: (ms: number) => Promise<void>
}

/** The segment the options describe, checked as the admin API checks it, field by field of its definition. */
export function segmentOf(options: SegmentOptions): Segment {
  const segment: Record<string, unknown> = {}
  for (const name of SEGMENT_FIELDS) {
    const field: SegmentField = SEGMENT[name]
    const given: unknown = options[field.flag as keyof SegmentOptions]
    if (given === undefined || given === false) continue
    const checked = (typed: string, value = typed) => {
      if (!isItemOf(field, value)) throw new UsageError(`--${field.flag}: expected ${expectedOf(field)}, got "${typed}"`)
      return value
    }
    const values = Array.isArray(given) ? given.map(String) : [String(given)]
    switch (field.kind) {
      case 'switch':
        segment[name] = true
        break
      case 'tristate':
        segment[name] = checked(values.at(-1) ?? '') === 'yes'
        break
      case 'codes':
        // Codes in any letter case: the definition's are upper case (GB).
        segment[name] = values.map((value) => checked(value, value.toUpperCase()))
        break
      case 'choice':
      case 'texts':
        if (field.kind === 'texts' && values.length > field.maxItems)
          throw new UsageError(`--${field.flag}: at most ${field.maxItems} of them, got ${values.length}`)
        segment[name] = values.map((value) => checked(value))
        break
      case 'moment':
        segment[name] = checked(values.at(-1) ?? '')
        break
      case 'number':
        segment[name] = Number(checked(values.at(-1) ?? ''))
        break
    }
  }
  const problems = segmentProblems(segment as Segment, (name) => `--${SEGMENT[name].flag}`)
  if (problems.length > 0) throw new UsageError(problems.join('\n'))
  return tidySegment(segment as Segment)
}

/** What an option's value is called in --help. */
function placeholder(field: SegmentField): string {
  switch (field.kind) {
    case 'switch':
      return ''
    case 'moment':
      return ' DATE'
    case 'number':
      return ' N'
    case 'tristate':
      return ` ${TRISTATE_FLAG_VALUES.join('|')}`
    default:
      return ` ${field.flag.toUpperCase()}…`
  }
}

/** What --help adds to a field's words: the values it takes, or what it must come after. */
function takes(field: SegmentField): string | null {
  switch (field.kind) {
    case 'choice':
      return `(${field.of.join(', ')})`
    case 'codes':
      return `(${field.codeName}s such as ${field.example})`
    case 'number':
      return `(${field.min.toLocaleString('en')} to ${field.max.toLocaleString('en')})`
    case 'tristate':
      return `(${TRISTATE_FLAG_VALUES.join(' or ')}; either when left out)`
    case 'moment': {
      const after = SEGMENT_FIELDS.find((name) => name === field.after)
      return after ? `(after --${SEGMENT[after].flag})` : null
    }
    default:
      return null
  }
}

/**
 * Words laid out in lines of at most `width` characters after `indent`; each part is kept whole (a
 * list of values is one part), so no list is broken across lines.
 */
export function wrapParts(parts: readonly string[], width: number, indent: string): string[] {
  const lines: string[] = []
  let line = ''
  for (const part of parts) {
    if (line !== '' && line.length + 1 + part.length > width) {
      lines.push(line)
      line = part
    } else line = line === '' ? part : `${line} ${part}`
  }
  if (line !== '') lines.push(line)
  return lines.map((text, i) => (i === 0 ? text : `${indent}${text}`))
}

/** --help's column where descriptions start, and its width. */
export const HELP_COLUMN = 40
export const HELP_WIDTH = 100

/** The segment's options in --help: one line or more per field of the definition. */
export function segmentHelp(): string {
  const indent = ' '.repeat(HELP_COLUMN)
  return SEGMENT_FIELDS.map((name) => {
    const field: SegmentField = SEGMENT[name]
    const option = `  --${field.flag}${placeholder(field)}`
    const words = [...field.help.split(' '), ...[takes(field)].filter((part) => part !== null)]
    const [first = '', ...rest] = wrapParts(words, HELP_WIDTH - HELP_COLUMN, indent)
    const head = option.length < HELP_COLUMN ? `${option.padEnd(HELP_COLUMN)}${first}` : `${option}\n${indent}${first}`
    return [head, ...rest].join('\n')
  }).join('\n')
}

function campaignId(value: string | undefined, command: string): number {
  const id = Number(value)
  if (!Number.isInteger(id) || id < 1) throw new UsageError(`campaign ${command}: which campaign? e.g. campaign ${command} 3`)
  return id
}

const count = (n: number) => n.toLocaleString('en')

function progressLine(p: CampaignProgress): string {
  const d = p.delivery
  return `campaign ${p.id} (${p.status}): sent ${count(d.sent)} of ${count(p.recipients)}, queued ${count(p.queued)}, failed ${count(p.failed)}, delivered ${count(d.delivered)}, hard bounces ${count(d.hardBounced)}, soft bounces ${count(d.softBounced)}, complaints ${count(d.complained)}`
}

function bar(p: CampaignProgress, width = 30): string {
  const done = p.recipients === 0 ? 1 : (p.delivery.sent + p.failed) / p.recipients
  const filled = Math.round(done * width)
  return `[${'#'.repeat(filled)}${'-'.repeat(width - filled)}] ${String(Math.round(done * 100)).padStart(3)}% ${progressLine(p)}`
}

export async function runCampaign(
  store: WaitlistStore,
  config: Pick<Config, 'SITE_URL' | 'PORT' | 'APP_STORE_URL' | 'PLAY_STORE_URL'>,
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
      // As the running server will send it: its address and store links are the ones it recorded
      // at start (public-settings.ts), whatever this shell's environment says.
      const server = readPublicSettings(await store.settings.read(PUBLIC_SETTINGS_KEY))
      const settings = server ?? {
        siteUrl: config.SITE_URL ?? `http://localhost:${config.PORT}`,
        appStoreUrl: config.APP_STORE_URL ?? null,
        playStoreUrl: config.PLAY_STORE_URL ?? null,
      }
      const checked = campaignWords(
        { subject: subjects as CampaignRequest['subject'], markdown: markdowns as CampaignRequest['markdown'] },
        settings,
      )
      if (!checked.ok) throw new UsageError(checked.problems.join('\n'))
      const { en: words, ...translations } = checked.words

      const segment = segmentOf(options)
      const recipients = await store.campaigns.count(segment)
      if (options['dry-run']) {
        io.out(`dry run: ${audience(recipients)}; nothing was saved\n`)
        io.out(
          server
            ? `links as the server at ${server.siteUrl} sends them (its settings of ${server.recordedAt})\n`
            : "links as this shell's settings say (the server has not recorded its own yet: start it once)\n",
        )
        // {{store_url}} is each recipient's phone's: the preview shows one whose phone is not known.
        if (Object.values(checked.words).some((localWords) => placeholdersIn(localWords.markdown).includes('store_url'))) {
          const sample = 'your-own-app-link'
          const appLink = previewLinks(settings).appLink
          const phones = (['ios', 'android'] as const).map(
            (platform) => `${platform === 'ios' ? 'iPhone' : 'Android'} ${storeUrlFor(settings, platform, appLink, sample)}`,
          )
          io.out(`{{store_url}} by the recipient's phone: ${phones.join('; ')}; not known: their own app link (shown below)\n`)
        }
        // Each language it is written in, as its recipients will get it.
        for (const [locale, localWords] of Object.entries(checked.words) as [Locale, { subject: string; markdown: string }][]) {
          const rendered = renderCampaign(localWords, previewLinks(settings), mailCopy(product, locale))
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
          ? `campaign ${id}: ${counted(sent.queued, 'mail', 'mails')} queued; the running server sends them at MAIL_RATE_PER_SECOND\nfollow with: npm run -s waitlist -- campaign status ${id} --follow\n`
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
      const tty = Boolean(io.progress.isTTY)
      let last = ''
      for (;;) {
        const line = tty ? bar(progress) : progressLine(progress)
        if (line !== last) io.progress.write(tty ? `\r${line}` : `${line}\n`)
        last = line
        if (progress.status === 'finished' || progress.status === 'draft') break
        await io.sleep(1000)
        progress = (await store.campaigns.progress(id)) ?? progress
      }
      if (tty) io.progress.write('\n')
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
          `${String(c.id).padStart(4)}  ${c.status.padEnd(8)}  ${`${count(c.delivery.sent)}/${count(c.recipients)}`.padStart(13)}  ${c.subject}\n`,
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
    `total ${count(s.total)}, confirmed ${count(s.confirmed)}, unsubscribed ${count(s.unsubscribed)}; in the app ${count(s.claimed)}`,
    // Brought in by an import and never confirmed: apart from everyone below (docs/import.md).
    `imported, never confirmed ${count(s.imported.total)}${s.imported.byCountry.length > 0 ? ` (${s.imported.byCountry.map((c) => `${c.country ?? '(none)'} ${count(c.total)}`).join(', ')})` : ''}`,
    '',
    'by country (subscribed; iphone and android among them; in the app beside them):',
  ]
  lines.push(
    `  ${'country'.padEnd(8)}${['breeders', 'owners', 'clubs', 'fans', 'unsaid', 'total', 'iphone', 'android', 'in app'].map((h) => h.padStart(9)).join('')}`,
  )
  for (const c of s.byCountry) {
    lines.push(
      `  ${(c.country ?? '(none)').padEnd(8)}${[c.breeders, c.owners, c.clubs, c.enthusiasts, c.unsaid, c.total, c.ios, c.android, c.claimed].map((n) => count(n).padStart(9)).join('')}`,
    )
  }
  lines.push('', 'by phone (subscribed / confirmed):')
  for (const p of s.byPlatform)
    lines.push(`  ${(p.platform ?? '(not known)').padEnd(12)} ${count(p.total).padStart(8)} / ${count(p.confirmed)}`)
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
