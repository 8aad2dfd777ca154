// The outbox's worker, in the server process (docs/decisions/011-the-outbox.md). It claims due
// mails (leased: on PostgreSQL several instances share the outbox and never send a row at the
// same time), paces them at MAIL_RATE_PER_SECOND for the whole deployment (the store's counters),
// sends them and records each outcome: sent; retried with backoff on a transient failure;
// bounced on a permanent one; failed once its 24 hours of retries are over. Mail is sent at least
// once: a crash between the send and its record sends it again, as the same message.
import { redactPersonal } from '../http/redact.js'
import type { ClaimedMail, WaitlistStore } from '../store/types.js'
import type { Suppressions } from './suppression.js'
import type { OutgoingMail, Transport } from './transport.js'

export interface RetryPolicy {
  /** The first retry's wait; each later one doubles it. */
  firstMs: number
  maxMs: number
  /** After this long since the mail was queued, a transient failure gives up ("failed"). */
  giveUpAfterMs: number
}

export const RETRY: RetryPolicy = { firstMs: 2_000, maxMs: 60_000, giveUpAfterMs: 24 * 60 * 60 * 1000 }

interface WorkerLog {
  info: (details: object, message: string) => void
  warn: (details: object, message: string) => void
  error: (details: object, message: string) => void
}

export interface MailWorkerOptions {
  store: WaitlistStore
  transport: Transport
  /** The message for a claimed mail (throws when it cannot be made: that mail fails). */
  compose: (mail: ClaimedMail) => Promise<OutgoingMail>
  log: WorkerLog
  /** 0: as fast as the transport takes them. */
  ratePerSecond: number
  retry?: RetryPolicy
  /** Mails claimed at a time, and sent at once. */
  batchSize?: number
  concurrency?: number
  /**
   * How long a claim holds a mail unless renewed; the worker renews its claims while it works on
   * them, so a crashed instance's mails are due again this soon.
   */
  leaseMs?: number
  /** The longest sleep between looks at the outbox (another instance may have queued mail). */
  pollMs?: number
  /** The suppression list: nothing is sent to an address on it, and a refusal for good is recorded there. */
  suppressions?: Suppressions
}

export interface MailWorker {
  start(): void
  /** Mail was queued: look now rather than at the next poll. */
  nudge(): void
  /** Finishes the sends under way, hands back the rest of the claim, and stops. */
  stop(): Promise<void>
}

/** What an SMTP failure means for the mail: try again later, or never. */
export function isPermanentFailure(error: unknown): boolean {
  const { responseCode, code } = (error ?? {}) as { responseCode?: unknown; code?: unknown }
  // A refused login is the server's configuration, not the recipient's: retried while it is fixed.
  if (code === 'EAUTH') return false
  return typeof responseCode === 'number' && responseCode >= 500 && responseCode < 600
}

/**
 * A permanent refusal of the recipient itself: at RCPT TO, or with a status that says the mailbox
 * or its domain is not there (5.1.x, 5.2.1). A 554 for the message or the sender is none.
 */
export function isRecipientRefused(error: unknown): boolean {
  const { command, response } = (error ?? {}) as { command?: unknown; response?: unknown }
  if (!isPermanentFailure(error)) return false
  return command === 'RCPT TO' || (typeof response === 'string' && /\b5\.(1\.\d+|2\.1)\b/.test(response))
}

/** An error as it may be logged or stored: no address in it (SMTP replies quote the recipient). */
function describe(error: unknown): string {
  const { responseCode, message } = (error ?? {}) as { responseCode?: unknown; message?: unknown }
  const text = typeof message === 'string' ? message : String(error)
  return redactPersonal(`${typeof responseCode === 'number' ? `${responseCode} ` : ''}${text}`).slice(0, 500)
}

export function createMailWorker(options: MailWorkerOptions): MailWorker {
  const { store, transport, compose, log } = options
  const retry = options.retry ?? RETRY
  const batchSize = options.batchSize ?? 20
  const concurrency = options.concurrency ?? 4
  const leaseMs = options.leaseMs ?? 15_000
  const pollMs = options.pollMs ?? 1_000
  let stopped = true
  let loop: Promise<void> | undefined
  let wake: (() => void) | undefined
  /** Every wait under way (the lanes pace at once): stop() ends them all. */
  const waits = new Set<() => void>()
  let nudged = false
  /** Claimed, not yet handed to the transport: given back when the worker stops. */
  const unstarted = new Set<number>()
  /** Claimed and not yet settled: their leases are renewed while the worker is at them. */
  const held = new Set<number>()
  const heartbeat = setInterval(() => {
    if (held.size === 0) return
    store.outbox
      .extendLease([...held], leaseMs)
      .catch((error: unknown) => log.warn({ reason: describe(error) }, 'outbox: could not renew leases'))
  }, leaseMs / 3)
  heartbeat.unref()

  /**
   * Waits `ms`. Only the idle wait between looks at the outbox may be cut short by a nudge; a wait
   * for the pace is never (under load every sign-up nudges). stop() cuts either.
   */
  const sleep = (ms: number, wakeOnNudge: boolean) =>
    new Promise<void>((resolve) => {
      const timer = setTimeout(done, Math.max(0, ms))
      function done() {
        clearTimeout(timer)
        if (wake === done) wake = undefined
        waits.delete(done)
        resolve()
      }
      waits.add(done)
      if (wakeOnNudge) wake = done
    })

  /** Waits for a slot in this second's allowance, counted for the whole deployment. */
  async function paceSlot(): Promise<void> {
    if (options.ratePerSecond <= 0) return
    while (!stopped) {
      const second = Math.floor(Date.now() / 1000)
      const [count] = await store.counters.hit([{ key: `mail:pace:${second}`, windowMs: 1000 }])
      if ((count?.hits ?? 0) <= options.ratePerSecond) return
      await sleep((second + 1) * 1000 - Date.now(), false)
    }
  }

  async function deliver(mail: ClaimedMail): Promise<void> {
    let message: OutgoingMail
    try {
      message = await compose(mail)
    } catch (error) {
      unstarted.delete(mail.id)
      log.error({ mail: mail.id, kind: mail.kind, reason: describe(error) }, 'mail could not be made; given up')
      await store.outbox.giveUp(mail.id, 'failed', describe(error))
      return
    }
    await paceSlot()
    if (stopped) return // handed back by stop()
    // A campaign paused while its mail waited for the pace: the mail goes back to wait with it.
    if (mail.campaignId !== null && !(await store.campaigns.isSending(mail.campaignId))) {
      unstarted.delete(mail.id)
      await store.outbox.retryAt(mail.id, new Date().toISOString(), 'campaign paused')
      return
    }
    unstarted.delete(mail.id)
    // Suppressed while it waited for the pace (a complaint just in): not sent.
    if (options.suppressions && (await options.suppressions.suppressedMails([mail])).has(mail.id)) {
      await store.outbox.giveUp(mail.id, 'failed', 'suppressed')
      return
    }
    try {
      await transport.send(message)
    } catch (error) {
      await settleFailure(mail, error)
      return
    }
    // A mail that carried the recipient's app link (its code, in the link or as Play's install
    // referrer) counts them invited to the app (docs/decisions/022-into-the-app.md).
    await store.outbox.markSent(
      mail.id,
      mail.app !== null && (message.text.includes(mail.app.code) || message.html.includes(mail.app.code)),
    )
    log.info({ mail: mail.id, kind: mail.kind, attempt: mail.attempt }, 'mail sent')
  }

  async function settleFailure(mail: ClaimedMail, error: unknown): Promise<void> {
    const reason = describe(error)
    if (isPermanentFailure(error)) {
      log.warn({ mail: mail.id, kind: mail.kind, attempt: mail.attempt, reason }, 'mail bounced: refused for good')
      // The recipient refused (not the message, not the sender): a hard bounce like any reported
      // later, recorded before the mail is settled so that a failure here tries the mail again.
      if (isRecipientRefused(error)) await options.suppressions?.report({ outboxId: mail.id, type: 'hard-bounce', source: 'smtp' })
      await store.outbox.giveUp(mail.id, 'bounced', reason)
      return
    }
    const wait = Math.min(retry.maxMs, retry.firstMs * 2 ** (mail.attempt - 1))
    const at = Date.now() + wait
    if (at - Date.parse(mail.createdAt) > retry.giveUpAfterMs) {
      log.warn({ mail: mail.id, kind: mail.kind, attempt: mail.attempt, reason }, 'mail failed: retries exhausted')
      await store.outbox.giveUp(mail.id, 'failed', reason)
      return
    }
    log.warn({ mail: mail.id, kind: mail.kind, attempt: mail.attempt, retryInMs: wait, reason }, 'mail not sent; will retry')
    await store.outbox.retryAt(mail.id, new Date(at).toISOString(), reason)
  }

  /** Sends every mail that is due now, a batch at a time. */
  async function drain(): Promise<void> {
    while (!stopped) {
      nudged = false
      const claimed = await store.outbox.claim(batchSize, leaseMs)
      if (claimed.length === 0) return
      // A suppressed address is never mailed, confirmations included: its mails fail unsent.
      const suppressed = options.suppressions ? await options.suppressions.suppressedMails(claimed) : new Set<number>()
      for (const id of suppressed) {
        await store.outbox.giveUp(id, 'failed', 'suppressed')
        log.info({ mail: id }, 'mail not sent: the address is suppressed')
      }
      const mails = claimed.filter((mail) => !suppressed.has(mail.id))
      for (const mail of mails) {
        unstarted.add(mail.id)
        held.add(mail.id)
      }
      const queue = [...mails]
      const lanes = Array.from({ length: Math.min(concurrency, queue.length) }, async () => {
        for (let mail = queue.shift(); mail && !stopped; mail = queue.shift()) {
          await deliver(mail).catch((error: unknown) =>
            log.error({ mail: mail?.id, reason: describe(error) }, 'outbox: recording a mail failed'),
          )
        }
      })
      await Promise.all(lanes)
    }
  }

  async function run(): Promise<void> {
    while (!stopped) {
      try {
        await drain()
      } catch (error) {
        log.warn({ reason: describe(error) }, 'outbox: the store did not answer; looking again soon')
      }
      if (stopped || nudged) continue
      let wait = pollMs
      try {
        const due = await store.outbox.nextDue()
        if (due !== null) wait = Math.min(pollMs, Date.parse(due) - Date.now())
      } catch {
        wait = pollMs // the store is down: the next look says so
      }
      if (!stopped && !nudged) await sleep(wait, true)
    }
  }

  return {
    start() {
      if (!stopped) return
      stopped = false
      loop = run()
    },
    nudge() {
      nudged = true
      wake?.()
    },
    async stop() {
      if (stopped) return
      stopped = true
      for (const done of [...waits]) done()
      await loop
      // Claimed but never started: due again at once, for whichever instance looks first.
      const now = new Date().toISOString()
      clearInterval(heartbeat)
      held.clear()
      for (const id of unstarted) {
        await store.outbox.retryAt(id, now, 'stopped before sending').catch((error: unknown) =>
          // Its lease lapses by itself: the mail is due again then.
          log.warn({ mail: id, reason: describe(error) }, 'outbox: could not hand a claimed mail back'),
        )
      }
      unstarted.clear()
    },
  }
}
