// The waitlist's storage, as the rest of the server sees it. The two implementations (sqlite.ts,
// postgres.ts) import this file and nothing above the store; create-store.ts picks one.
import type { MailOverview, MailState, SignUp, Stats } from '../../contract/admin-api.js'
import type { CampaignProgress, Segment, Segments } from '../../contract/campaigns.js'
import type { Funnel, LaunchTargets } from '../../contract/growth.js'
import type { Locale } from '../../contract/locales.js'
import type { BreedTargets } from '../../contract/breed-meters.js'
import type { Deliverability } from '../../contract/deliverability.js'
import type { MailEventType, Suppression } from '../../contract/mail-events.js'
import type { Profile, ProfileBreed } from '../../contract/visitor.js'
import type { AuditAction, AuditItem, OperatorRole, TokenRole } from '../../contract/team.js'
import type { AppProfile, Platform } from '../../contract/app.js'
import type { WebhookDisabledReason } from '../../contract/webhooks.js'
import type { HandOffTally } from '../../contract/growth.js'
import type { ImportExisting, ImportMode, ImportReason, ImportStatus } from '../../contract/imports.js'
import type { Role, Side } from '../../contract/visitor.js'
import type { WaitlistRow } from '../../contract/waitlist.js'

export type { CampaignProgress, MailState, Profile, Segment, Segments, SignUp, Stats, WaitlistRow }

export interface ListOptions {
  /** Keyset pagination: rows with an id greater than this. */
  afterId?: number
  limit: number
  /** Only addresses containing this text, in any letter case. */
  search?: string
  /** Only sign-ups at or after this moment (ISO 8601). */
  since?: string
  /**
   * One page of a read of every row (the export): SQLite reads it on its reader's thread, where a
   * page of rows not in its cache does not hold the server's (at a million, 15 to 40 ms a page); a
   * command, which has no reader thread, on its main thread.
   */
  bulk?: boolean
}

/** How many sources `stats` lists. */
export const TOP_SOURCES = 20

/** How long an address waits before a repeated sign-up may queue another confirmation mail. */
export const CONFIRMATION_INTERVAL_MS = 24 * 60 * 60 * 1000

export interface AddResult {
  /** A new address: stored now. A duplicate (any letter case) stores nothing. */
  inserted: boolean
  /**
   * A confirmation mail was queued in the same transaction: for a new address, or for one that
   * is neither confirmed nor unsubscribed and had none queued in CONFIRMATION_INTERVAL_MS.
   */
  mailQueued: boolean
}

/** A bounce or complaint as the store records it: the address's keyed hash, and the message if known. */
export interface MailEventRecord {
  email: string
  emailHash: string
  type: MailEventType
  source: string
  eventId: string | null
  /** The outbox row it is about (a VERP address or a Message-ID found it), if any. */
  outboxId: number | null
}

/** How a report is recorded: the pause rule, its single-use keys, and how long they and its events' ids are remembered. */
export interface RecordOptions {
  rule?: PauseRule
  once?: readonly string[]
  /** At least the provider's retry window: a replay within it counts nothing, even after the sign-up and its events are gone. */
  rememberMs?: number
}

export interface RecordOutcome {
  recorded: boolean
  suppressed: boolean
  /** The campaign this report paused, if it did. */
  pausedCampaign: number | null
}

export type RecordResult = { taken: false } | { taken: true; outcomes: RecordOutcome[] }

/** How long a report's keys are remembered when its source says nothing (SendGrid retries for 24 hours). */
export const REMEMBER_REPORTS_MS = 72 * 60 * 60 * 1000

/** When a campaign pauses itself: hard bounces or complaints over its last deliveries above these fractions. */
export interface PauseRule {
  bounceRate: number
  complaintRate: number
}

/** Bounces, complaints and the suppression list (docs/decisions/019-suppression.md). */
export interface SuppressionStore {
  /** The key of the addresses' hashes (made by the migration). */
  key(): Promise<string>
  /**
   * In one transaction, a report's events and what they decide: each event once (none whose
   * eventId was recorded, or remembered, before: `recorded` false); a hard bounce suppresses the
   * address, a complaint unsubscribes its sign-up and suppresses it, soft bounces suppress from
   * SOFT_BOUNCES_TO_SUPPRESS in SOFT_BOUNCE_DAYS; a campaign whose last deliveries pass the rule
   * pauses. With `once`, the request's single-use keys (a provider's nonce): when one was taken
   * before and is still remembered, nothing at all is recorded (`taken` false).
   */
  record(events: readonly MailEventRecord[], options?: RecordOptions): Promise<RecordResult>
  /** The outbox rows of these message keys (a Message-ID's left part), with their recipients' addresses. */
  messagesOf(messageKeys: readonly string[]): Promise<Map<string, { outboxId: number; email: string }>>
  /** Which of these hashes are suppressed. */
  suppressedAmong(hashes: readonly string[]): Promise<Set<string>>
  /**
   * A suppression kept as a hash alone (its sign-up was deleted) gets its address back when that
   * address has signed up again: the operators see whom the list holds (and the sign-up its mark).
   */
  relink(entries: readonly { emailHash: string; email: string }[]): Promise<void>
  /** The outbox row of a VERP id, with its recipient's address. */
  outboxOf(id: number): Promise<{ outboxId: number; email: string } | undefined>
  list(query: string | null, limit: number): Promise<Suppression[]>
  /** A manual suppression; false when the address was suppressed already. */
  add(email: string, emailHash: string, audit?: AuditEntry): Promise<boolean>
  /** Lifts one; false when there was none. */
  lift(emailHash: string, audit?: AuditEntry): Promise<boolean>
  /** A sign-up's bounces and complaints (the admin and the visitor's download show them). */
  eventsOf(signupId: number): Promise<{ type: MailEventType; source: string; at: string }[]>
}

/** Whether our mail reaches inboxes (docs/decisions/020-deliverability.md). */
export interface DeliverabilityStore {
  /** Per campaign sent, per recipient domain, and the rolling complaint rate, counted now in one snapshot. */
  figures(): Promise<Deliverability>
}

/** A profile as the store saves it: each typed name with its key, and the catalogue's id if it knew the name. */
export interface ProfileToSave extends Omit<Profile, 'breeds'> {
  breeds: (ProfileBreed & { key: string })[]
}

/** Confirmed, subscribed profiles naming a known breed, per breed and country (null: not said). */
export interface BreedCount {
  breed: string
  country: string | null
  studs: number
  dams: number
  seekers: number
  profiles: number
}

/** Breeds by the catalogue (docs/breeds.md): the meters' counts, their targets, and the names it missed. */
export interface BreedStore {
  /** Every breed × country with a counted profile (35,000 at a million sign-ups: read off the request's path). */
  counts(): Promise<BreedCount[]>
  /** The counts of some breeds in one country now (a visitor's page: a few keys, read by key). */
  countsIn(country: string, breeds: readonly string[]): Promise<BreedCount[]>
  targets(): Promise<BreedTargets>
  setTargets(targets: BreedTargets, audit?: AuditEntry): Promise<void>
  /**
   * Typed names no breed has, every sign-up's (confirmed or not: all of them are mapped), grouped by
   * key and shown by its first spelling in the store's order, the most typed first.
   */
  unmatched(limit: number): Promise<{ name: string; count: number }[]>
  /** Maps a key to a breed for every sign-up that typed it, and for later ones; answers how many sign-ups it changed. */
  map(key: string, breed: string, audit?: AuditEntry): Promise<number>
  /** Reads the names the migration copied (no key yet): answers how many it read. */
  readCopied(read: (name: string) => { key: string; breed: string | null }): Promise<number>
}

/** A sign-up as its own page sees it. */
export interface Visitor {
  id: number
  email: string
  created_at: string
  confirmed_at: string | null
  unsubscribed_at: string | null
  profile: Profile
  /** Made when the address is confirmed; null before. */
  invite_code: string | null
  locale: Locale
  /** The phone it uses (its join's browser, or what it said here); null when not known. */
  platform: Platform | null
  /** Its app link's code, once a campaign mail made it; null before. */
  app_code: string | null
  /** When the app took its profile; null until then. */
  claimed_at: string | null
}

/** What a sign-up's invite link has brought: counts only, never who. */
export interface InviteCounts {
  /** Sign-ups made through the link (deleted ones are gone from it). */
  joined: number
  /** Of them, the confirmations credited (DAILY_INVITE_CREDITS a UTC day at most). */
  confirmed: number
}

/** Everything stored about one sign-up: the visitor's download (GDPR articles 15 and 20). */
export interface VisitorData {
  signup: Omit<SignUp, 'mail_state'> & { confirmation_queued_at: string | null }
  mails: { kind: string; state: MailState; attempts: number; created_at: string; sent_at: string | null }[]
  /** How many page links have been mailed (the tokens themselves are kept only as hashes). */
  page_links: number
  /** The sign-up's invite code (null until confirmed) and what it has brought. */
  invite: { code: string | null } & InviteCounts
  /** The profile in full: each breed with its id, side and health tests; the kennel club; the litters. */
  profile: Profile
  /** Its app link's code (null until a campaign mail made it), when it was mailed and opened, and whether and when the app took the profile. */
  app: {
    code: string | null
    link_made_at: string | null
    invited_at: string | null
    opened_at: string | null
    claimed: boolean
    claimed_at: string | null
  }
}

export interface VisitorStore {
  /** The sign-up a page token (its SHA-256, hex) opens; undefined when none does. */
  byToken(tokenHash: string): Promise<Visitor | undefined>
  /**
   * Sets confirmed_at, once, and gives the sign-up its invite code; in the same transaction, the
   * first confirmation of an invited sign-up is credited to its inviter, unless the inviter stopped
   * e-mails or has DAILY_INVITE_CREDITS credits this UTC day already.
   */
  confirm(id: number): Promise<void>
  invites(id: number): Promise<InviteCounts>
  /** The profile, its breeds replaced in one transaction (a name the catalogue missed gets an operator's mapping, if any). */
  saveProfile(id: number, profile: ProfileToSave): Promise<void>
  /** The language the sign-up's page and mails speak from now on. */
  setLocale(id: number, locale: Locale): Promise<void>
  /** The phone the visitor says they use (their campaign's {{store_url}} follows it). */
  setPlatform(id: number, platform: Platform): Promise<void>
  /** Stops (false) or restarts (true) e-mails to the address. */
  setSubscribed(id: number, subscribed: boolean): Promise<void>
  /** The sign-up, its mails and its page tokens, gone for good. */
  remove(id: number): Promise<void>
  data(id: number): Promise<VisitorData>
}

/** A mail the worker has claimed: leased to it, its page token made if it had none. */
export interface ClaimedMail {
  id: number
  /** A visitor's confirmation or campaign mail, or an operator's invitation or sign-in link. */
  kind: 'confirm' | 'campaign' | 'team-invite' | 'team-sign-in' | 'webhook-disabled'
  campaignId: number | null
  messageKey: string
  /** This attempt's number (1 for the first). */
  attempt: number
  /** ISO 8601: when the mail was queued (its Date header, and the start of its 24 hours of retries). */
  createdAt: string
  /** The page token (a visitor's) or the link's token (an operator's) in clear, for this mail's links. */
  token: string
  to: string
  /** The recipient's language, as it is when the mail is claimed. */
  locale: Locale
  /** What an operator's notice says (a disabled webhook's address and why). */
  note: Record<string, unknown> | null
  /** A campaign mail's recipient's app link code (made with its first campaign mail) and phone; null for other mails. */
  app: { code: string; platform: Platform | null } | null
  /** The recipient came with an import and has not confirmed: a campaign mail asks them to (contract/imports.ts). */
  unconfirmedImport: boolean
}

/** The queue now, and what became of every mail. */
export type MailFigures = Pick<MailOverview, 'queue' | 'delivery'>

export interface OutboxStore {
  /**
   * Up to `limit` mails that are due (queued and due, or sending under a lapsed lease), leased for
   * `leaseMs`: on PostgreSQL, instances never claim one row at the same time (SKIP LOCKED).
   * Confirmation mails come before campaign mails; a paused campaign's mails wait.
   */
  claim(limit: number, leaseMs: number): Promise<ClaimedMail[]>
  /** The worker is still at these mails: their leases run `leaseMs` from now. */
  extendLease(ids: readonly number[], leaseMs: number): Promise<void>
  /**
   * The mail was sent; `heldAppLink`: it held the recipient's app link (its code), which counts them
   * invited (once) in the same transaction.
   */
  markSent(id: number, heldAppLink?: boolean): Promise<void>
  /** A transient failure: due again at `at` (ISO 8601). */
  retryAt(id: number, at: string, error: string): Promise<void>
  /** A permanent failure (`bounced`) or retries exhausted (`failed`): never tried again. */
  giveUp(id: number, state: 'bounced' | 'failed', error: string): Promise<void>
  /** How many mails are in each state now (a refused mail is `bounced`; one reported dead later stays `sent`). */
  counts(): Promise<Record<MailState, number>>
  /** The queue now, and what became of every mail (the figures Deliverability counts per campaign and domain). */
  figures(): Promise<MailFigures>
  /** When the next queued mail is due (ISO 8601), if any: the worker sleeps until then. */
  nextDue(): Promise<string | null>
}

/** A campaign as the worker renders it: its English words, and those of any other language it was written in. */
export interface Campaign {
  id: number
  subject: string
  markdown: string
  translations: Partial<Record<Locale, { subject: string; markdown: string }>>
  segment: Segment
}

/** What a change meant for a draft: made, or refused because the campaign is sent already. */
export type DraftChange = 'draft' | 'sent'

export interface CampaignStore {
  /** How many sign-ups the segment selects now (never an unsubscribed one). */
  count(segment: Segment): Promise<number>
  /** A draft; answers its id. */
  create(campaign: Omit<Campaign, 'id'>): Promise<number>
  get(id: number): Promise<Campaign | undefined>
  /** A draft's new words and segment: 'draft' (changed), 'sent' (no longer a draft: unchanged) or undefined (none). */
  update(id: number, campaign: Omit<Campaign, 'id'>): Promise<DraftChange | undefined>
  /** Deletes a draft with the audit's line: 'draft' (deleted), 'sent' (kept: it went out) or undefined (none). */
  remove(id: number, audit?: AuditEntry): Promise<DraftChange | undefined>
  progress(id: number): Promise<CampaignProgress | undefined>
  /** Every campaign, the newest first. */
  list(): Promise<CampaignProgress[]>
  /**
   * Queues one mail per recipient, all in one transaction, once: a draft becomes `sending`; a
   * campaign already sent (by this call or a concurrent one) queues nothing more. Undefined when
   * there is no such campaign.
   */
  send(id: number, audit?: AuditEntry): Promise<{ recipients: number; queued: number } | undefined>
  /** Whether the campaign's mails may go out now (it is sending, not paused). */
  isSending(id: number): Promise<boolean>
  /** Holds (true) or releases (false) a campaign's queued mails; false when it was no such campaign. */
  setPaused(id: number, paused: boolean, audit?: AuditEntry): Promise<boolean>
}

/** Confirmed, subscribed sign-ups of one country, by role (the launch meter before its target). */
export interface CountryCount {
  country: string
  /** Every role, and none said. */
  confirmed: number
  breeders: number
  owners: number
}

/** One flush of counted landing-page views: per UTC day and source. */
export interface ViewBatch {
  day: string
  source: string
  views: number
  /** The keyed hashes of this batch's visitors (each once in the batch, with its first source). */
  visitors: Buffer[]
}

export interface GrowthStore {
  launchTargets(): Promise<LaunchTargets>
  setLaunchTargets(targets: LaunchTargets, audit?: AuditEntry): Promise<void>
  /** Every country with a confirmed, subscribed sign-up (`country` set), the most first; or only `country`. */
  countryCounts(country?: string): Promise<CountryCount[]>
  /** Confirmed, subscribed sign-ups of every country and none: the landing page's total. */
  waiting(): Promise<number>
  /**
   * The day's secret that visitors' hashes are made with: random, made by the first to need it,
   * held in memory (SQLite) or shared by every instance until the day is over (PostgreSQL).
   */
  visitorKey(day: string): Promise<Buffer>
  /** Adds the views, and each visitor not yet counted that day. */
  addViews(batch: readonly ViewBatch[]): Promise<void>
  /** Drops the keys and visitors' hashes of the days that are over (the store also does it every minute). */
  forgetPastDays(): Promise<void>
  /**
   * Views, visitors and the sign-ups' cohorts per UTC day from `since` to `until` (inclusive), and per
   * source (the hand-off's figures are the app store's: AppStore.handOff).
   */
  /** `breed`: only the sign-ups that named it (a catalogue id) in the cohorts; views are everyone's. */
  funnel(since: string, until: string, breed?: string | null): Promise<Omit<Funnel, 'handOff'>>
  /** The sign-ups whose links brought the most credited confirmations. */
  topInviters(limit: number): Promise<{ id: number; email: string; joined: number; confirmed: number }[]>
}

/** What an app link opens in a browser: its sign-up's language, and whether the app has taken it already. */
export interface AppLinkRecord {
  signupId: number
  locale: Locale
  claimed: boolean
}

/** Into the app (docs/decisions/022-into-the-app.md): app links, opened and claimed. */
export interface AppStore {
  /**
   * The link of a code; with `opened`, a person's browser was served its page: the first time
   * counts them opened (unless the app has the profile already). Undefined: no such code.
   */
  open(code: string, opened: boolean): Promise<AppLinkRecord | undefined>
  /**
   * The claim, in one transaction with its audit line (the sign-up's id, never its address): the
   * code spent and the profile answered; 'claimed' when it was spent already; undefined when no
   * sign-up has it (unknown, or deleted).
   */
  claim(code: string, tokenId: number | null, audit: (signupId: number) => AuditEntry): Promise<AppProfile | 'claimed' | undefined>
  /**
   * The profile of a code this token claimed, as the claim answered it, for an answer that was lost
   * (whether it may be asked for again is the route's to say: CLAIM_AGAIN_MS); nothing is written.
   * Undefined when the code is unknown, not claimed, or another token's.
   */
  claimedProfile(code: string, tokenId: number): Promise<AppProfile | undefined>
  /** Invited, opened and claimed: everyone's, per country and per breed; with a breed, its people only. */
  handOff(breed?: string | null): Promise<HandOffTally>
}

/** A partner as stored (docs/decisions/025-partners.md). */
export interface PartnerRecord {
  id: number
  name: string
  key: string
  origins: string[]
  thanks_url: string | null
  breed: string | null
  country: string | null
  disabled_at: string | null
  created_at: string
}

/** What a partner is told apart by, as it is saved (checked by the route or the command first). */
export type PartnerFields = Pick<PartnerRecord, 'name' | 'origins' | 'thanks_url' | 'breed' | 'country'>

/** A partner's tallies: sign-ups that first joined through it, and of them the confirmed (its credit). */
export interface PartnerCounts {
  signups: number
  confirmed: number
}

/** A partner's sign-ups per country (null: not said) and per breed, exact: the team's view. */
export interface PartnerBreakdown {
  countries: { country: string | null; signups: number; confirmed: number }[]
  /** `breed`: the catalogue's id, or null for a name it does not know (`name`: its first spelling). Each person once per breed. */
  breeds: { breed: string | null; name: string; signups: number; confirmed: number }[]
}

/** Partners and their keys; every change in one transaction with its audit line. */
export interface PartnerStore {
  /** A new partner with its key; answers its id. */
  add(fields: PartnerFields & { key: string }, audit: AuditEntry): Promise<number>
  /** Every partner with its tallies, the oldest first. */
  list(): Promise<(PartnerRecord & PartnerCounts)[]>
  get(id: number): Promise<(PartnerRecord & PartnerCounts) | undefined>
  /** The enabled partner of a key (the embed's every request): undefined for an unknown, rotated or disabled one. */
  byKey(key: string): Promise<PartnerRecord | undefined>
  /** Changes some fields, or disables (enables) it; false when there is no such partner. */
  change(id: number, change: Partial<PartnerFields> & { disabled?: boolean }, audit: AuditEntry): Promise<boolean>
  /** A new key: the old one opens nothing from this moment. False when there is no such partner. */
  rotate(id: number, key: string, audit: AuditEntry): Promise<boolean>
  /** Its sign-ups per country and per breed, the most first, at most `limit` of each. */
  breakdown(id: number, limit: number): Promise<PartnerBreakdown>
}

/** An import as it starts (docs/decisions/026-import.md): the file is stored and its header read. */
export interface ImportStart {
  mode: ImportMode
  existing: ImportExisting
  basis: string
  label: string | null
  sha256: string
  bytes: number
  ignoredColumns: string[]
  /** How long its worker holds it without renewing (the worker renews it with each batch, and between). */
  leaseMs: number
}

/** One record of the file read as the join reads a sign-up: the address trimmed, each field checked. */
export interface ImportRecord {
  /** The file's own line of the record's first line (the header is line 1). */
  line: number
  email: string
  /** The address's keyed hash (the suppression list's, server/mail/suppression.ts). */
  emailHash: string
  locale: Locale
  country: string | null
  role: Role | null
  /** Each name as typed, its key, and the catalogue's breed (an operator's mapping is looked up by the store). */
  breeds: { name: string; key: string; breed: string | null }[]
  side: Side | null
}

/** A line not added or filled, and why. */
export interface ImportLine {
  line: number
  /** The address as the file wrote it. */
  email: string
  reason: ImportReason
}

/** One batch of the file: its readable records, and the lines found wanting while reading (failures, repeats). */
export interface ImportBatch {
  records: ImportRecord[]
  lines: ImportLine[]
  /** How far into the file its last record ends. */
  readBytes: number
}

/** CSV imports (docs/decisions/026-import.md): one running at a time for the whole deployment. */
export interface ImportStore {
  /**
   * How the worker should write to this store: records per batch, and how long to rest after a
   * batch, as a share of the time it took. SQLite's one writer (and the event loop, which waits for
   * it) is shared with sign-ups; PostgreSQL's batches wait on the network, the event loop free.
   */
  readonly pace: { records: number; rest: number }
  /**
   * The import, running, with its audit line ('import started'): 'busy' while another one runs (an
   * import whose lease ran out is marked failed first, its prefix kept).
   */
  start(start: ImportStart, audit: (id: number) => AuditEntry): Promise<{ id: number } | 'busy'>
  /** Whether an import runs now (a lease that ran out is no longer running). */
  running(): Promise<boolean>
  /**
   * One batch in one transaction: its sign-ups (or suppressions), their breeds, its lines and the
   * counts, and the lease renewed; no mail, no webhook per row. False, and nothing written, when the
   * import no longer runs (cancelled, or its lease ran out).
   */
  write(id: number, batch: ImportBatch, leaseMs: number): Promise<boolean>
  /** The worker is still at it: false when the import no longer runs. */
  renew(id: number, leaseMs: number): Promise<boolean>
  /** Ends a running import, with its audit line ('import finished') in the same transaction; false when it no longer ran. */
  finish(id: number, end: { status: 'done' | 'failed'; rows: number | null; error: string | null }): Promise<boolean>
  /** Stops a running import where it is (what was written stays): the status, 'ended' when it was not running, undefined when unknown. */
  cancel(id: number, audit: AuditEntry): Promise<ImportStatus | 'ended' | undefined>
  status(id: number): Promise<ImportStatus | undefined>
  /** The newest imports first. */
  list(limit: number): Promise<ImportStatus[]>
  /** Its lines not added or filled, in the file's order, a page at a time. */
  lines(id: number, afterLine: number, limit: number): Promise<ImportLine[]>
}

/** Settings: one JSON value per key (the server's public settings among them, for the command line). */
export interface SettingsStore {
  read(key: string): Promise<unknown>
  write(key: string, value: unknown): Promise<void>
}

/** The waitlist's storage. Every method rejects with StoreUnavailableError when the store is down. */
export interface WaitlistStore {
  /**
   * Resolves once the row, and its confirmation mail if one is due, are durably committed (one
   * transaction); a duplicate (any letter case) stores no row.
   */
  add(row: WaitlistRow): Promise<AddResult>
  count(options?: Pick<ListOptions, 'since'>): Promise<number>
  list(options: ListOptions): Promise<SignUp[]>
  stats(): Promise<Stats>
  /** Deletes the address (any letter case) for good; false when it was not listed. */
  remove(email: string, audit?: (id: number) => AuditEntry): Promise<boolean>
  /** Rejects unless the store answers now. */
  ping(): Promise<void>
  /** The limits' counters: in this process (SQLite), or shared by every instance (PostgreSQL). */
  readonly counters: WindowCounters
  readonly visitors: VisitorStore
  readonly outbox: OutboxStore
  readonly campaigns: CampaignStore
  readonly growth: GrowthStore
  readonly team: TeamStore
  readonly webhooks: WebhookStore
  readonly breeds: BreedStore
  readonly suppressions: SuppressionStore
  readonly deliverability: DeliverabilityStore
  readonly settings: SettingsStore
  readonly app: AppStore
  readonly partners: PartnerStore
  readonly imports: ImportStore
  /** The demand map: who waits where, for which breeds (unsubscribed addresses left out); with a breed id, its people only. */
  segments(breed?: string | null): Promise<Segments>
  /** Writes what it has accepted, then lets go of the database. */
  close(): Promise<void>
}

/** How a process uses the store. */
export interface StoreOptions {
  /**
   * SQLite's long reads on a thread of their own (the default), so a server's event loop goes on
   * meanwhile. A command that answers one operator and ends has no event loop to keep free: it
   * reads on its main thread and starts no worker (about 100 ms of CPU less per command).
   */
  readerThread?: boolean
}

/** Where a store reports trouble it recovers from by itself (pino's signature). */
export interface StoreLogger {
  warn: (details: object, message: string) => void
}

/** The store cannot answer now; the request may be retried (503 PGRST002). */
export class StoreUnavailableError extends Error {
  override name = 'StoreUnavailableError'
}

/**
 * One line of the audit log, written in the transaction of what it records (when there is one).
 * The actor is kept as it was: an operator's e-mail, a token's name, ADMIN_TOKEN, the command line.
 */
export interface AuditEntry {
  actorId: number | null
  actor: string
  action: AuditAction
  target: string | null
  detail: Record<string, unknown> | null
  requestId: string | null
}

export interface OperatorRecord {
  id: number
  email: string
  name: string
  role: OperatorRole
  /** The WebAuthn user handle (random, base64url). */
  user_handle: string
  /** The operator's own language: the admin page's and their mails'. */
  locale: Locale
  disabled_at: string | null
  created_at: string
  passkeys: number
}

export interface LinkRecord {
  id: number
  purpose: 'setup' | 'invite' | 'sign-in'
  email: string | null
  role: OperatorRole | null
  operator_id: number | null
  /** The language an invitation is mailed in and its invitee starts with (null: the operator's, else English). */
  locale: Locale | null
  expires_at: string
}

export interface PasskeyRecord {
  id: string
  operator_id: number
  name: string
  /** base64url */
  public_key: string
  counter: number
  transports: string[]
  created_at: string
  last_used_at: string | null
}

export interface SessionRecord {
  operator: OperatorRecord
  created_at: string
  last_seen_at: string
  expires_at: string
}

export interface TokenRecord {
  id: number
  name: string
  role: TokenRole
  created_at: string
  expires_at: string | null
  last_used_at: string | null
  revoked_at: string | null
}

/** A sign-in, done whole in one transaction (docs/decisions/017-the-team.md). */
export interface SignIn {
  /** The link it comes through: used up now, or nothing happens (undefined is answered). */
  link?: { tokenHash: string; purposes: readonly LinkRecord['purpose'][] }
  /** Who signs in: an operator (a passkey, a sign-in link), or one made now from an invitation. */
  operator: { id: number } | { email: string; name: string; role?: OperatorRole; userHandle: string; locale: Locale }
  /** A passkey registered with it (a setup or an invitation accepted with one). */
  newPasskey?: Omit<PasskeyRecord, 'operator_id' | 'created_at' | 'last_used_at'>
  /** A passkey it was made with: its new signature counter. */
  usedPasskey?: { id: string; counter: number }
  /** `lengthMs`: how long it lasts from the moment the store writes it (its start and end from one clock). */
  session: { idHash: string; lengthMs: number; /** The session it replaces (a sign-in again): ended. */ replaces?: string }
  audit: Omit<AuditEntry, 'actorId' | 'actor'>
}

export interface TeamStore {
  /** Whether any operator exists (the first start prints a setup link while none does). */
  hasOperators(): Promise<boolean>
  operators(): Promise<OperatorRecord[]>
  operator(id: number): Promise<OperatorRecord | undefined>
  operatorByEmail(email: string): Promise<OperatorRecord | undefined>
  /** An operator's own language changed (theirs alone); false when there is no such operator. */
  setOperatorLocale(id: number, locale: Locale): Promise<boolean>
  /**
   * A role change, or disabling (enabling) an operator: their sessions end in the same transaction.
   * Never leaves the team without an enabled owner.
   */
  changeOperator(
    id: number,
    change: { role?: OperatorRole; disabled?: boolean },
    audit: AuditEntry,
  ): Promise<'changed' | 'unknown' | 'last-owner'>
  /**
   * A link: with `mail`, its mail is queued in the same transaction and the token is made when the
   * outbox claims it (null answered); without, the token is made now and answered (printed).
   */
  addLink(
    link: Omit<LinkRecord, 'id'> & { createdBy: number | null },
    options: { mail: boolean; audit: AuditEntry | null },
  ): Promise<{ id: number; token: string | null }>
  /** A link that still opens (unused, unexpired, of those purposes), changing nothing. */
  openLink(tokenHash: string, purposes: readonly LinkRecord['purpose'][]): Promise<LinkRecord | undefined>
  /** Invitations not yet used nor expired. */
  invitations(): Promise<(LinkRecord & { created_at: string })[]>
  /** Closes an open invitation now (its link no longer opens), audited; false when none was open. */
  revokeInvitation(id: number, audit: AuditEntry): Promise<boolean>
  /** How many sign-in links an address was sent since a moment. */
  signInLinksSince(email: string, since: string): Promise<number>
  /** Everything a sign-in does, in one transaction; undefined when its link no longer opens. */
  signIn(signIn: SignIn): Promise<{ operator: OperatorRecord } | undefined>
  passkey(id: string): Promise<PasskeyRecord | undefined>
  passkeys(operatorId: number): Promise<PasskeyRecord[]>
  addPasskey(
    operatorId: number,
    passkey: Omit<PasskeyRecord, 'operator_id' | 'created_at' | 'last_used_at'>,
    audit: AuditEntry,
  ): Promise<void>
  removePasskey(operatorId: number, id: string, audit: AuditEntry): Promise<boolean>
  putChallenge(challenge: {
    id: string
    challenge: string
    operatorId: number | null
    userHandle: string | null
    expiresAt: string
  }): Promise<void>
  /** The challenge, once: taken out whatever its age; undefined when unknown or expired. */
  takeChallenge(id: string): Promise<{ challenge: string; operatorId: number | null; userHandle: string | null } | undefined>
  /** The session and its enabled operator, seen now; undefined (and ended) when expired or idle too long. */
  session(idHash: string, idleMs: number): Promise<SessionRecord | undefined>
  endSession(idHash: string, audit: AuditEntry | null): Promise<void>
  addToken(
    token: { name: string; role: TokenRole; tokenHash: string; createdBy: number | null; expiresAt: string | null },
    audit: AuditEntry,
  ): Promise<number>
  tokens(): Promise<TokenRecord[]>
  /** A token that works (not revoked, not expired), its use recorded (at most once a minute). */
  useToken(tokenHash: string): Promise<TokenRecord | undefined>
  revokeToken(id: number, audit: AuditEntry): Promise<boolean>
  audit(entry: AuditEntry): Promise<void>
  auditLog(options: { before?: number; limit: number }): Promise<AuditItem[]>
  /** Deletes the lines before a moment (and records that it did, when it deleted any); answers how many. */
  purgeAudit(before: string, audit: AuditEntry): Promise<number>
}

/** A webhook endpoint as stored (docs/decisions/018-webhooks.md). */
export interface WebhookEndpointRecord {
  id: number
  url: string
  description: string
  events: string[]
  enabled: boolean
  include_email: boolean
  secret: string
  previous_secret: string | null
  previous_until: string | null
  /** A WebhookDisabledReason as the worker writes it; read through isDisabledReason. */
  disabled_reason: string | null
  failing_since: string | null
  created_at: string
  updated_at: string
}

export type WebhookEndpointFields = Pick<WebhookEndpointRecord, 'url' | 'description' | 'events' | 'enabled' | 'include_email'>

/** A delivery the worker has claimed, with what it needs to send it. */
export interface ClaimedDelivery {
  id: number
  /** This attempt's number (1 for the first). */
  attempt: number
  messageId: string
  type: string
  data: Record<string, unknown>
  /** When the event happened. */
  eventAt: string
  /** The sign-up's address, only for an endpoint that asked for it (and while the sign-up exists). */
  email: string | null
  endpoint: Pick<WebhookEndpointRecord, 'id' | 'url' | 'enabled' | 'secret' | 'previous_secret' | 'previous_until' | 'failing_since'>
}

/** One attempt, as the delivery log shows it. */
export interface WebhookAttemptRecord {
  id: number
  delivery_id: number
  event_type: string
  attempt: number
  at: string
  duration_ms: number
  status: number | null
  response: string | null
  error: string | null
  /** The delivery's state now. */
  state: 'pending' | 'delivering' | 'delivered' | 'failed'
  message_id: string
}

/** What an attempt came to. */
export interface WebhookOutcome {
  state: 'delivered' | 'pending' | 'failed'
  nextAttemptAt: string | null
  status: number | null
  error: string | null
  response: string | null
  durationMs: number
  at: string
  /** Disable the endpoint, for this reason (a 410, or five days of failures). */
  disable: WebhookDisabledReason | null
}

export interface WebhookStore {
  endpoints(): Promise<WebhookEndpointRecord[]>
  endpoint(id: number): Promise<WebhookEndpointRecord | undefined>
  addEndpoint(fields: WebhookEndpointFields & { secret: string }, audit: AuditEntry): Promise<number>
  /** Enabling again clears why it was disabled and its failures. */
  changeEndpoint(id: number, change: Partial<WebhookEndpointFields>, audit: AuditEntry): Promise<boolean>
  removeEndpoint(id: number, audit: AuditEntry): Promise<boolean>
  /** A new secret; the old one signs too until `previousUntil`. */
  rotateSecret(id: number, secret: string, previousUntil: string, audit: AuditEntry): Promise<boolean>
  /** Due deliveries of enabled endpoints (and those whose lease ran out), leased to this worker. */
  claim(limit: number, leaseMs: number): Promise<ClaimedDelivery[]>
  /** The attempt's line, the delivery's new state and the endpoint's, in one transaction. */
  settle(delivery: ClaimedDelivery, outcome: WebhookOutcome): Promise<void>
  /** An event for a state reached once (`campaign:12`, `country:DE`): emitted the first time only. */
  announce(key: string, type: string, data: Record<string, unknown>): Promise<boolean>
  /** A test event for one endpoint. */
  sendTest(endpointId: number, data: Record<string, unknown>, audit: AuditEntry): Promise<boolean>
  attempts(endpointId: number, options: { before?: number; limit: number }): Promise<WebhookAttemptRecord[]>
  /** Queues a delivery again at once, under its event's same webhook-id. */
  resend(endpointId: number, deliveryId: number, audit: AuditEntry): Promise<boolean>
  /** Queues every failed delivery of the endpoint since that moment again; answers how many. */
  resendFailed(endpointId: number, since: string, audit: AuditEntry): Promise<number>
  /** Removes attempts, and settled deliveries and their events, older than that moment. */
  purge(before: string): Promise<number>
}

/** Fixed-window counters for the per-IP limits and the admin lockout (limits/). */
export interface WindowHit {
  key: string
  windowMs: number
}

export interface WindowCount {
  /** Hits in the key's current window (0 when none is open). */
  hits: number
  /** Milliseconds until that window closes (0 when none is open). */
  resetMs: number
}

export interface WindowCounters {
  /**
   * Adds one hit to each key's current window, opening one of `windowMs` at the first hit, and
   * answers the counts after it, in the order given. The keys must differ.
   */
  hit(windows: readonly WindowHit[]): Promise<WindowCount[]>
  /** The key's current count, without adding to it. */
  peek(key: string): Promise<WindowCount>
  /**
   * Takes one hit back from each key's open window: a hit taken before a look-up that turned out
   * to cost nothing (a right code, server/handoff/routes.ts). A closed window, or one at 0, stays as
   * it is. The keys must differ.
   */
  giveBack(keys: readonly string[]): Promise<void>
}
