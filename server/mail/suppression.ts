// Bounces, complaints and suppression (docs/decisions/019-suppression.md): an address's keyed hash
// (HMAC-SHA256 under the store's key, so the hash of a deleted sign-up names no one to whoever lacks
// the key), and the one way every source records an event: tied to the original recipient, found by
// the VERP id or the Message-ID first, else by the address given.
import { createHmac } from 'node:crypto'
import type { MailEventType } from '../../contract/mail-events.js'
import type { ClaimedMail, MailEventRecord, PauseRule, RecordOptions, SuppressionStore } from '../store/types.js'
import type { OutgoingMail } from './transport.js'

/** A bounce or complaint from any source. `messageKey` (a Message-ID's left part) or `outboxId` (a VERP return path's) find the mail and its original recipient; `email` is the fallback. */
export interface MailReportEvent {
  email?: string | null
  messageKey?: string | null
  outboxId?: number | null
  type: MailEventType
  source: string
  eventId?: string | null
}

export interface ReportOutcome {
  /** A mail of ours, or an address, says whom it is about. */
  found: boolean
  recorded: boolean
  suppressed: boolean
  pausedCampaign?: number | null
}

export interface Suppressions {
  hash(email: string): Promise<string>
  /** Records one bounce or complaint. */
  report(event: MailReportEvent): Promise<ReportOutcome>
  /**
   * Records a report's events in one transaction (a provider's batch): null when one of its
   * single-use keys (`once`) was taken before, and nothing was recorded.
   */
  reportAll(events: readonly MailReportEvent[], options?: Pick<RecordOptions, 'once' | 'rememberMs'>): Promise<ReportOutcome[] | null>
  /** The tag a VERP address carries beside the mail's number, so that no one can forge a report about another mail. */
  verpTag(id: number): Promise<string>
  /** The ids of the mails whose recipients are suppressed. */
  suppressedMails(mails: readonly { id: number; to: string }[]): Promise<Set<number>>
}

/** Hex characters of the VERP tag (40 bits: guessing one takes a trillion tries). */
export const VERP_TAG_LENGTH = 10

export function createSuppressions(store: SuppressionStore, rule?: PauseRule): Suppressions {
  let key: Promise<string> | undefined
  // A failed read is not kept: the next mail asks again (the store may have been down a moment).
  const keyNow = () =>
    (key ??= store.key().catch((error: unknown) => {
      key = undefined
      throw error
    }))
  const hash = async (email: string) =>
    createHmac('sha256', await keyNow())
      .update(email.trim().toLowerCase())
      .digest('hex')
  async function reportAll(events: readonly MailReportEvent[], options: Pick<RecordOptions, 'once' | 'rememberMs'> = {}) {
    // Whom each event is about: its mail (by VERP id, then Message-ID), else the address given.
    const keys = events.flatMap((event) => (event.messageKey ? [event.messageKey] : []))
    const byKey = keys.length > 0 ? await store.messagesOf(keys) : new Map<string, { outboxId: number; email: string }>()
    const found: ({ event: MailReportEvent; email: string; outboxId: number | null } | null)[] = []
    for (const event of events) {
      const message =
        (event.outboxId ? await store.outboxOf(event.outboxId) : undefined) ?? (event.messageKey ? byKey.get(event.messageKey) : undefined)
      const email = message?.email ?? event.email ?? null
      found.push(email === null ? null : { event, email, outboxId: message?.outboxId ?? null })
    }
    const records: MailEventRecord[] = []
    for (const entry of found)
      if (entry)
        records.push({
          email: entry.email,
          emailHash: await hash(entry.email),
          type: entry.event.type,
          source: entry.event.source,
          eventId: entry.event.eventId ?? null,
          outboxId: entry.outboxId,
        })
    const result = await store.record(records, { ...options, ...(rule ? { rule } : {}) })
    if (!result.taken) return null
    let next = 0
    return found.map((entry): ReportOutcome => {
      if (!entry) return { found: false, recorded: false, suppressed: false }
      const outcome = result.outcomes[next++]
      return {
        found: true,
        recorded: outcome?.recorded ?? false,
        suppressed: outcome?.suppressed ?? false,
        pausedCampaign: outcome?.pausedCampaign ?? null,
      }
    })
  }
  return {
    hash,
    verpTag: async (id) =>
      createHmac('sha256', await keyNow())
        .update(`verp:${id}`)
        .digest('hex')
        .slice(0, VERP_TAG_LENGTH),
    report: async (event) => (await reportAll([event]))?.[0] ?? { found: false, recorded: false, suppressed: false },
    reportAll,
    suppressedMails: async (mails) => {
      if (mails.length === 0) return new Set()
      const hashes = new Map<number, string>()
      for (const mail of mails) hashes.set(mail.id, await hash(mail.to))
      const suppressed = await store.suppressedAmong([...new Set(hashes.values())])
      const held = mails.filter((mail) => suppressed.has(hashes.get(mail.id) ?? ''))
      // Someone whose suppression outlived their deleted sign-up has signed up again: the list names them again.
      if (held.length > 0) await store.relink(held.map((mail) => ({ emailHash: hashes.get(mail.id) ?? '', email: mail.to })))
      return new Set(held.map((mail) => mail.id))
    },
  }
}

/**
 * With MAIL_RETURN_PATH, each mail's envelope sender names its outbox row and a tag only this
 * deployment can make (`bounces+123.9f2c41d0ab@…`, VERP): a DSN mailed back says which mail it is about.
 */
export function withReturnPath(
  returnPath: string | undefined,
  suppressions: Pick<Suppressions, 'verpTag'>,
  compose: (mail: ClaimedMail) => Promise<OutgoingMail>,
): (mail: ClaimedMail) => Promise<OutgoingMail> {
  if (!returnPath) return compose
  return async (mail) => ({
    ...(await compose(mail)),
    envelope: { from: returnPath.replace('{id}', `${mail.id}.${await suppressions.verpTag(mail.id)}`), to: mail.to },
  })
}
