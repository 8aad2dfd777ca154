// `npm run waitlist -- <command>`: the operators' command line. It uses the server's configuration
// (SQLite, or PostgreSQL with DATABASE_URL) and talks to the store directly.
import { once } from 'node:events'
import { createWriteStream } from 'node:fs'
import type { Writable } from 'node:stream'
import { parseArgs } from 'node:util'
import { DEFAULT_LOCALE, LOCALES } from '../../contract/locales.js'
import { ConfigError, loadConfig } from '../config.js'
import { dkimKey, dnsRecords, txtStrings } from '../mail/dkim.js'
import { readReport } from '../mail/reports.js'
import { createSuppressions } from '../mail/suppression.js'
import { createStore, type WaitlistStore } from '../store/index.js'
import { runBackup } from './cli-backup.js'
import { printSegments, runCampaign, segmentFlags, segmentHelp } from './cli-campaigns.js'
import { cliAudit, UsageError } from './cli-common.js'
import { printFunnel, runLaunchTargets } from './cli-growth.js'
import { runAudit, runOperator } from './cli-team.js'
import { runWebhooks } from './cli-webhooks.js'
import { runPartners } from './cli-partners.js'
import { runImportCommand } from './cli-imports.js'
import { disposableDomainCheck } from '../waitlist/disposable.js'
import { type ExportFormat, exportChunks, signUps } from './export.js'
import { loadVisitorPages } from '../visitor/pages.js'
import { visitorDir } from '../paths.js'

// Descriptions start at column 40 and lines end by column 100; a list (of values, of options) is
// never broken across lines, so it reads and greps whole. Made when asked for: the segment options'
// lines cost a command that does not print them ~25 ms of its start.
const help = () => `Usage: npm run waitlist -- <command> [options]

Commands:
  count [--since DATE]                  how many sign-ups (since DATE)
  export [--format csv|json] [--since DATE] [--out FILE]
                                        every sign-up, streamed (to FILE, or standard output)
  remove EMAIL                          delete one address for good (any letter case)
  stats                                 total, sign-ups per day and top sources
  backup FILE                           an online copy of the SQLite database (the server may
                                        run), checked: its integrity and how many sign-ups it holds
  mail status                           the queue (queued, sending, failed) and what became of the
                                        mails sent: delivered, hard and soft bounces, complaints
  mail dns                              the SPF, DKIM and DMARC TXT records to publish for
                                        MAIL_FROM's domain
  mail inbound < MESSAGE                a bounce (RFC 3464 DSN) or complaint (RFC 5965 ARF) mailed
                                        back: recorded, and the address suppressed as it says (a
                                        Postfix pipe)
  segments                              the demand map: roles per country, top breeds, confirmed
                                        or not
  campaign create --subject S --markdown-file F [segment options]
                  [--subject-de S --markdown-file-de F]… [--dry-run]
                                        a draft for a segment (confirmed addresses only unless
                                        told); --dry-run counts and renders it, and saves nothing
  campaign send ID                      queue its mails (once per recipient, however often sent)
  campaign status ID [--follow]         its progress; --follow watches it to the end
  campaign pause ID | resume ID         hold its queued mails, or let them go again
  campaign list                         every campaign, newest first
  launch-targets [--set FILE]           each country's launch targets (breeders and owners), and
                                        the default for the others; --set replaces them with
                                        FILE's JSON, such as
                                        {"default":{"breeders":50,"owners":200},"countries":{…}}
  funnel [--since DAY] [--until DAY] [--format json]
                                        views, visitors, sign-ups, confirmed, profiled and
                                        inviters per UTC day (default: the last 30), and per source
  operator invite EMAIL --role ROLE     a single-use setup link (one hour) for a new operator
  operator list                         the team: role, enabled or not, passkeys
  audit [--limit N]                     the audit log, newest first (default 50 lines)
  audit purge --before DATE             delete the audit log's lines before DATE (it keeps a year)
  webhooks list                         the webhook endpoints, enabled or not, and their events
  webhooks add URL --event E… [--description D] [--include-email]
                                        a new endpoint (https, a public address); prints its
                                        signing secret once
  webhooks test ID                      queue a test event for it (the running server sends it)
  webhooks log ID [--limit N]           its delivery log, newest first
  partners list                         the partners (clubs, kennels): key, origins, sign-ups and
                                        confirmed
  partners add NAME --origin O… [--thanks-url U] [--breed B] [--country C]
                                        a new partner and its key (origins https://, or http://
                                        on localhost); --breed and --country make its meter
  partners rotate ID                    a new key; the old one is refused at once
  partners disable ID | enable ID       its key and forms answer 404 (or work again)
  import FILE --mode subscribe --basis B [--existing skip|fill] [--label L]
                                        a CSV's addresses as sign-ups, unconfirmed and sent nothing
                                        (the basis: why we may hold them); --mode suppress adds
                                        them to the suppression list instead. Progress goes to
                                        stderr, a summary line to stdout (docs/import.md); Ctrl-C
                                        cancels it, keeping what was written
  import status ID | errors ID | list   an import's counts; its lines not added (CSV); every import

Segment options (campaign create): each one given narrows who gets the campaign; give an option
with … once per value (--role breeder --role owner: either).
${segmentHelp()}

Operator roles: owner, editor, viewer.
Languages: ${LOCALES.join(', ')}.
--subject-de and --markdown-file-de (and so on) give the campaign in that language besides
English; each recipient gets their own language's words, else English. The running server sends
campaign mails at MAIL_RATE_PER_SECOND; these commands queue and watch them.

DATE is an ISO 8601 date or moment, e.g. 2026-11-01 or 2026-11-01T12:00:00Z (UTC).
The store comes from the environment, as for the server: DATABASE_URL, else SQLITE_PATH
(default data/waitlist.db). CSV cells that a spreadsheet would run as formulas are neutralised.
`

function parseSince(value: string | undefined): string | undefined {
  if (value === undefined) return undefined
  const time = Date.parse(value)
  if (Number.isNaN(time)) throw new UsageError(`--since: expected a date such as 2026-11-01, got "${value}"`)
  return new Date(time).toISOString()
}

async function write(out: Writable, chunk: string): Promise<void> {
  if (!out.write(chunk)) await once(out, 'drain')
}

async function runExport(store: WaitlistStore, format: ExportFormat, since: string | undefined, file: string | undefined) {
  const total = await store.count({ since })
  const out = file ? createWriteStream(file) : process.stdout
  const progress = Boolean(file) && process.stderr.isTTY
  let rows = 0
  const counted = (async function* () {
    for await (const row of signUps(store, { since })) {
      rows++
      if (progress && rows % 10_000 === 0) process.stderr.write(`\rexported ${rows.toLocaleString('en')} of ${total.toLocaleString('en')}`)
      yield row
    }
  })()
  for await (const chunk of exportChunks(counted, format)) await write(out, chunk)
  if (file) {
    out.end()
    await once(out, 'finish')
    process.stderr.write(`${progress ? '\r' : ''}exported ${rows.toLocaleString('en')} sign-ups to ${file}\n`)
  }
}

async function printStats(store: WaitlistStore) {
  const stats = await store.stats()
  const lines = [`total: ${stats.total}`, '', 'per day (UTC):']
  for (const { day, count } of stats.perDay) lines.push(`  ${day}  ${String(count).padStart(8)}`)
  lines.push('', 'top sources:')
  for (const { source, count } of stats.perSource) lines.push(`  ${String(count).padStart(8)}  ${source ?? '(direct)'}`)
  process.stdout.write(`${lines.join('\n')}\n`)
}

export async function main(argv: string[]): Promise<number> {
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: {
      // Every field of a campaign's segment, from its definition (contract/segment.ts); --since,
      // --until and --role among them serve other commands too.
      ...segmentFlags,
      help: { type: 'boolean', short: 'h' },
      format: { type: 'string' },
      out: { type: 'string', short: 'o' },
      subject: { type: 'string' },
      'markdown-file': { type: 'string' },
      'dry-run': { type: 'boolean' },
      follow: { type: 'boolean' },
      set: { type: 'string' },
      // A campaign's words in a language besides English: --subject-de, --markdown-file-de…
      ...Object.fromEntries(
        LOCALES.filter((locale) => locale !== DEFAULT_LOCALE).flatMap((locale) => [
          [`subject-${locale}`, { type: 'string' as const }],
          [`markdown-file-${locale}`, { type: 'string' as const }],
        ]),
      ),
      before: { type: 'string' },
      limit: { type: 'string' },
      event: { type: 'string', multiple: true },
      description: { type: 'string' },
      'include-email': { type: 'boolean' },
      origin: { type: 'string', multiple: true },
      'thanks-url': { type: 'string' },
      mode: { type: 'string' },
      basis: { type: 'string' },
      existing: { type: 'string' },
      label: { type: 'string' },
    },
  })
  const [command, ...rest] = positionals
  if (values.help || command === undefined || command === 'help') {
    process.stdout.write(help())
    return command === undefined && !values.help ? 1 : 0
  }
  const since =
    command === 'campaign' ||
    command === 'funnel' ||
    command === 'audit' ||
    command === 'webhooks' ||
    command === 'partners' ||
    command === 'import'
      ? undefined
      : parseSince(values.since)
  // The export is CSV unless told; the funnel is a table unless told.
  const format = values.format ?? (command === 'funnel' ? 'table' : 'csv')
  const formats = command === 'funnel' ? ['table', 'json'] : ['csv', 'json']
  if (!formats.includes(format)) throw new UsageError(`--format: expected ${formats.join(' or ')}, got "${format}"`)
  const config = loadConfig()
  // A copy of the file, not through the store: nothing to migrate or open for writing.
  if (command === 'backup') return runBackup(config, rest, (text) => process.stdout.write(text))
  const store = await createStore(config, { warn: (_details, message) => process.stderr.write(`${message}\n`) }, { readerThread: false })
  try {
    switch (command) {
      case 'count':
        process.stdout.write(`${await store.count({ since })}\n`)
        return 0
      case 'export':
        await store.team.audit(cliAudit('signups exported', null, { rows: await store.count({ since }) }))
        await runExport(store, format === 'json' ? 'json' : 'csv', since, values.out)
        return 0
      case 'operator': {
        if ((values.role?.length ?? 0) > 1) throw new UsageError('--role: one role for an operator')
        const role = values.role?.[0]
        return await runOperator(store, config.SITE_URL ?? `http://localhost:${config.PORT}`, rest, { role }, (text) =>
          process.stdout.write(text),
        )
      }
      case 'webhooks':
        return await runWebhooks(store, config, rest, values, (text) => process.stdout.write(text))
      case 'partners':
        return await runPartners(store, config.SITE_URL ?? `http://localhost:${config.PORT}`, rest, values, (text) =>
          process.stdout.write(text),
        )
      case 'audit':
        return await runAudit(store, rest, { before: values.before, limit: values.limit }, (text) => process.stdout.write(text))
      case 'stats':
        await printStats(store)
        return 0
      case 'mail': {
        const [what] = rest
        if (what === 'dns') {
          const key = dkimKey(config.DKIM_PRIVATE_KEY, config.DKIM_SELECTOR, config.MAIL_FROM)
          // Zone-file lines: a value longer than one DNS string (255 characters) is split in quoted strings.
          for (const record of dnsRecords(config.MAIL_FROM, key))
            process.stdout.write(`; ${record.note}\n${record.name}. IN TXT ${txtStrings(record.value)}\n\n`)
          if (!key) process.stdout.write('; DKIM: set DKIM_PRIVATE_KEY and DKIM_SELECTOR to sign mail and print its record\n')
          return 0
        }
        if (what === 'inbound') {
          // One message on standard input, as a mail server's pipe hands it over.
          const chunks: Buffer[] = []
          for await (const chunk of process.stdin) chunks.push(chunk as Buffer)
          const reports = readReport(Buffer.concat(chunks).toString('utf8'), config.MAIL_RETURN_PATH)
          const suppressions = createSuppressions(store.suppressions, {
            bounceRate: config.CAMPAIGN_PAUSE_BOUNCE_RATE,
            complaintRate: config.CAMPAIGN_PAUSE_COMPLAINT_RATE,
          })
          for (const report of reports) {
            // Only a mail of ours decides: a VERP address whose tag holds, or a Message-ID we made.
            const outboxId = report.verp && (await suppressions.verpTag(report.verp.id)) === report.verp.tag ? report.verp.id : null
            const outcome = await suppressions.report({
              outboxId,
              messageKey: report.messageKey,
              email: null,
              type: report.type,
              source: report.type === 'complaint' ? 'arf' : 'dsn',
              eventId: report.eventId,
            })
            process.stdout.write(
              `${report.type}: ${outcome.found ? (outcome.recorded ? (outcome.suppressed ? 'recorded, address suppressed' : 'recorded') : 'seen before') : 'no mail of ours'}\n`,
            )
          }
          if (reports.length === 0) process.stdout.write('not a bounce or complaint report: nothing recorded\n')
          return 0
        }
        if (what !== 'status') throw new UsageError(`mail: expected "mail status", "mail dns" or "mail inbound", got "mail ${what ?? ''}"`)
        // The Mail view's figures, in the same words: the queue, then what became of the mails handed over.
        const { queue, delivery } = await store.outbox.figures()
        const lines: [string, number][] = [
          ['queued', queue.queued],
          ['sending', queue.sending],
          ['failed', queue.failed],
          ['sent', delivery.sent],
          ['delivered', delivery.delivered],
          ['hard bounces', delivery.hardBounced],
          ['soft bounces', delivery.softBounced],
          ['complaints', delivery.complained],
        ]
        process.stdout.write(lines.map(([label, n]) => `${label.padEnd(13)} ${n.toLocaleString('en').padStart(9)}\n`).join(''))
        return 0
      }
      case 'segments':
        await printSegments(store, (text) => process.stdout.write(text))
        return 0
      case 'launch-targets':
        return await runLaunchTargets(store, values.set, (text) => process.stdout.write(text))
      case 'funnel':
        await printFunnel(store, { since: values.since, until: values.until, format: format === 'json' ? 'json' : 'table' }, (text) =>
          process.stdout.write(text),
        )
        return 0
      case 'campaign': {
        const product = (await loadVisitorPages(visitorDir))?.site.productName ?? 'Kennect'
        return await runCampaign(store, config, product, rest, values, {
          out: (text) => process.stdout.write(text),
          progress: process.stdout,
          sleep: (ms) => new Promise((resolve) => setTimeout(resolve, ms)),
        })
      }
      case 'import': {
        // Ctrl-C during an import cancels it (what was written stays), then the command ends.
        const interrupted = new Promise<void>((resolve) => process.once('SIGINT', () => resolve()))
        return await runImportCommand(
          store,
          config,
          {
            suppressions: createSuppressions(store.suppressions),
            rules: { blockedDomain: config.BLOCK_DISPOSABLE_EMAIL ? disposableDomainCheck() : undefined },
          },
          rest,
          { mode: values.mode, basis: values.basis, existing: values.existing, label: values.label },
          { out: (text) => process.stdout.write(text), progress: process.stderr, interrupted },
        )
      }
      case 'remove': {
        const [email] = rest
        if (!email) throw new UsageError('remove: which address? e.g. npm run waitlist -- remove ada@example.com')
        const removed = await store.remove(email, (id) => cliAudit('signup deleted', `signup ${id}`))
        // The address is not repeated: the operator typed it, and logs keep no addresses.
        process.stdout.write(removed ? 'removed 1 sign-up\n' : 'no sign-up with that address\n')
        return removed ? 0 : 1
      }
      default:
        throw new UsageError(`unknown command "${command}"`)
    }
  } finally {
    await store.close()
  }
}

main(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code
  },
  (error: unknown) => {
    if (
      error instanceof UsageError ||
      error instanceof ConfigError ||
      (error as { code?: string }).code === 'ERR_PARSE_ARGS_UNKNOWN_OPTION'
    ) {
      process.stderr.write(`${(error as Error).message}\n\nRun \`npm run waitlist -- --help\` for usage.\n`)
      process.exitCode = 2
      return
    }
    process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n`)
    process.exitCode = 1
  },
)
