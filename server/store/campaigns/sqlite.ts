// Campaigns in SQLite (docs/decisions/013-campaigns.md): drafts made, changed and deleted; a
// segment counted; a draft sent by queueing one outbox row per recipient in one transaction.
import type Database from 'better-sqlite3'
import type { CampaignProgress, Segment } from '../../../contract/campaigns.js'
import { PROGRESS_TALLIES, progressOf } from './progress.js'
import type { SqliteTallies } from '../tallies/sqlite.js'
import { mappedKeysOf, type SegmentFilter, segmentFilter } from './segment.js'
import { type Run, auditWriter, now } from '../shared/sqlite.js'
import type { AuditEntry, Campaign, CampaignStore, DraftChange } from '../types.js'

/** The segment's recipients, as a WHERE clause over `waitlist` with named parameters (segmentParams). */
const SEGMENT_WHERE = `waitlist.unsubscribed_at IS NULL
  AND (@includeUnconfirmed = 1 OR @imported = 1 OR waitlist.confirmed_at IS NOT NULL)
  AND (CASE WHEN @imported = 1 THEN waitlist.import_id IS NOT NULL ELSE waitlist.import_id IS NULL OR waitlist.confirmed_at IS NOT NULL END)
  AND (@roles IS NULL OR waitlist.role IN (SELECT value FROM json_each(@roles)))
  AND (@countries IS NULL OR waitlist.country IN (SELECT value FROM json_each(@countries)))
  AND ((@breedIds IS NULL AND @sides IS NULL AND @readyPairs IS NULL) OR EXISTS (SELECT 1 FROM signup_breeds AS named
    WHERE named.signup_id = waitlist.id
      AND (@breedIds IS NULL OR named.breed IN (SELECT value FROM json_each(@breedIds))
        OR (named.breed IS NULL AND named.name_key IN (SELECT value FROM json_each(@breedKeys))))
      AND (@sides IS NULL OR named.side IN (SELECT value FROM json_each(@sides)))
      AND (@readyPairs IS NULL OR named.breed || '|' || waitlist.country IN (SELECT value FROM json_each(@readyPairs)))))
  AND (@since IS NULL OR waitlist.created_at >= @since)
  AND (@until IS NULL OR waitlist.created_at < @until)
  AND (@sources IS NULL OR coalesce(waitlist.utm_source, waitlist.referrer) IN (SELECT value FROM json_each(@sources)))
  AND (@invitedAtLeast IS NULL OR (SELECT count(*) FROM waitlist AS invitee
    WHERE invitee.invited_by = waitlist.id AND invitee.invite_credited_at IS NOT NULL) >= @invitedAtLeast)
    AND (@readyCountries IS NULL OR waitlist.country IN (SELECT value FROM json_each(@readyCountries)))
  AND (@locales IS NULL OR waitlist.locale IN (SELECT value FROM json_each(@locales)))
  AND (@platforms IS NULL OR coalesce(waitlist.platform, 'other') IN (SELECT value FROM json_each(@platforms)))
  AND (@claimed IS NULL OR EXISTS (SELECT 1 FROM app_links
    WHERE app_links.signup_id = waitlist.id AND app_links.claimed_at IS NOT NULL) = @claimed)
  AND (@partners IS NULL OR CAST(waitlist.partner_id AS TEXT) IN (SELECT value FROM json_each(@partners)))`

const json = (values: string[] | null) => (values === null ? null : JSON.stringify(values))
const segmentParams = (filter: SegmentFilter) => ({
  includeUnconfirmed: filter.includeUnconfirmed ? 1 : 0,
  roles: json(filter.roles),
  countries: json(filter.countries),
  breedIds: json(filter.breedIds),
  breedKeys: json(filter.breedKeys),
  sides: json(filter.sides),
  readyPairs: json(filter.readyPairs),
  since: filter.since,
  until: filter.until,
  sources: json(filter.sources),
  invitedAtLeast: filter.invitedAtLeast,
  readyCountries: json(filter.readyCountries),
  locales: json(filter.locales),
  platforms: json(filter.platforms),
  claimed: filter.claimed === null ? null : Number(filter.claimed),
  partners: json(filter.partners),
  imported: filter.imported ? 1 : 0,
})

export function createSqliteCampaigns(
  db: Database.Database,
  run: Run,
  growth: { readyNow(): string[] },
  breeds: { readyNow(): string[]; mappingsNow(keys: readonly string[]): Map<string, string> },
  tallies: SqliteTallies,
): CampaignStore {
  const writeAudit = auditWriter(db)
  /**
   * The segment as SQL parameters, what it depends on worked out now (inside the caller's
   * transaction): the ready countries and breeds, and the mappings of the names it gives.
   */
  const paramsOf = (segment: Segment) =>
    segmentParams(
      segmentFilter(segment, {
        readyCountries: segment.readyCountries ? growth.readyNow() : [],
        readyPairs: segment.readyBreeds ? breeds.readyNow() : [],
        mappings: breeds.mappingsNow(mappedKeysOf(segment)),
      }),
    )
  const count = db.prepare(`SELECT count(*) FROM waitlist WHERE ${SEGMENT_WHERE}`).pluck()
  const create = db
    .prepare(
      'INSERT INTO campaigns (subject, markdown, translations, segment) VALUES (@subject, @markdown, @translations, @segment) RETURNING id',
    )
    .pluck()
  const get = db.prepare('SELECT id, subject, markdown, translations, segment FROM campaigns WHERE id = ?')
  type Row = {
    id: number
    subject: string
    segment: string
    status: 'draft' | 'sending' | 'paused'
    recipients: number
    created_at: string
  }
  const campaignRows = db.prepare(
    'SELECT id, subject, segment, status, recipients, created_at, paused_reason FROM campaigns WHERE @id IS NULL OR id = @id ORDER BY id DESC',
  )
  const start = db
    .prepare(`UPDATE campaigns SET status = 'sending', sent_at = @now WHERE id = @id AND status = 'draft' RETURNING segment`)
    .pluck()
  // Each row's message key is a random UUID made in SQL, so the rows never pass through memory.
  const queue = db.prepare(
    `INSERT INTO outbox (signup_id, kind, campaign_id, message_key, next_attempt_at, created_at)
     SELECT id, 'campaign', @id,
       lower(substr(h, 1, 8) || '-' || substr(h, 9, 4) || '-' || substr(h, 13, 4) || '-' || substr(h, 17, 4) || '-' || substr(h, 21)),
       @now, @now
     FROM (SELECT waitlist.id, hex(randomblob(16)) AS h FROM waitlist WHERE ${SEGMENT_WHERE})
     WHERE true
     ON CONFLICT DO NOTHING`,
  )
  const setRecipients = db.prepare('UPDATE campaigns SET recipients = @recipients WHERE id = @id')
  const recipients = db.prepare('SELECT recipients, status FROM campaigns WHERE id = ?')
  const pause = db.prepare(
    `UPDATE campaigns SET status = CASE WHEN @paused = 1 THEN 'paused' ELSE 'sending' END, paused_reason = NULL
     WHERE id = @id AND status IN ('sending', 'paused')`,
  )
  const exists = db.prepare('SELECT 1 FROM campaigns WHERE id = ?').pluck()
  const update = db.prepare(
    `UPDATE campaigns SET subject = @subject, markdown = @markdown, translations = @translations, segment = @segment
     WHERE id = @id AND status = 'draft'`,
  )
  const remove = db.prepare(`DELETE FROM campaigns WHERE id = ? AND status = 'draft'`)
  /** After a change to a draft that touched no row: was it sent, or is there none? */
  const missed = (id: number): DraftChange | undefined => (exists.get(id) === undefined ? undefined : 'sent')
  const stored = (campaign: Omit<Campaign, 'id'>) => ({
    subject: campaign.subject,
    markdown: campaign.markdown,
    translations: JSON.stringify(campaign.translations),
    segment: JSON.stringify(campaign.segment),
  })
  const removeDraft = db.transaction((id: number, audit?: AuditEntry): DraftChange | undefined => {
    if (remove.run(id).changes === 0) return missed(id)
    if (audit) writeAudit(audit)
    return 'draft'
  })
  const sending = db.prepare(`SELECT 1 FROM campaigns WHERE id = ? AND status = 'sending'`).pluck()

  function progress(id: number | null): CampaignProgress[] {
    const rows = (campaignRows.all({ id }) as Row[]).map((row) => ({ ...row, segment: JSON.parse(row.segment) as Segment }))
    return progressOf(rows, tallies.readNow(PROGRESS_TALLIES, id === null ? undefined : [String(id)]))
  }

  // One transaction: the status moves from draft once, and every recipient's row is made with it.
  const send = db.transaction((id: number, audit?: AuditEntry) => {
    const segment = start.get({ id, now: now() }) as string | undefined
    if (segment === undefined) {
      const current = recipients.get(id) as { recipients: number } | undefined
      return current ? { recipients: current.recipients, queued: 0 } : undefined
    }
    const queued = queue.run({ id, now: now(), ...paramsOf(JSON.parse(segment) as Segment) }).changes
    setRecipients.run({ id, recipients: queued })
    if (audit) writeAudit({ ...audit, detail: { ...audit.detail, recipients: queued } })
    return { recipients: queued, queued }
  })
  const setPaused = db.transaction((id: number, paused: boolean, audit?: AuditEntry) => {
    const changed = pause.run({ id, paused: paused ? 1 : 0 }).changes > 0
    if (changed && audit) writeAudit(audit)
    return changed || exists.get(id) !== undefined
  })

  return {
    count: (segment) => run(() => Number(count.get(paramsOf(segment)))),
    create: (campaign) => run(() => Number(create.get(stored(campaign)))),
    update: (id, campaign) => run(() => (update.run({ id, ...stored(campaign) }).changes > 0 ? 'draft' : missed(id))),
    remove: (id, audit) => run(() => removeDraft.immediate(id, audit)),
    get: (id) =>
      run(() => {
        const row = get.get(id) as (Omit<Campaign, 'segment' | 'translations'> & { segment: string; translations: string }) | undefined
        return row ? { ...row, translations: JSON.parse(row.translations), segment: JSON.parse(row.segment) } : undefined
      }),
    progress: (id) => run(() => progress(id)[0]),
    list: () => run(() => progress(null)),
    send: (id, audit) => run(() => send.immediate(id, audit)),
    isSending: (id) => run(() => sending.get(id) !== undefined),
    setPaused: (id, paused, audit) => run(() => setPaused(id, paused, audit)),
  }
}
