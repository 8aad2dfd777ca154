// Campaigns in PostgreSQL (docs/decisions/013-campaigns.md): drafts made, changed and deleted; a
// segment counted; a draft sent by queueing one outbox row per recipient in one transaction.
import type pg from 'pg'
import type { CampaignProgress, Segment } from '../../../contract/campaigns.js'
import { PROGRESS_TALLIES, progressOf } from './progress.js'
import { readTallies } from '../tallies/postgres.js'
import { inTransaction, iso, type Run } from '../shared/postgres.js'
import { mappedKeysOf, type SegmentFilter, segmentFilter } from './segment.js'
import { writeAudit } from '../shared/postgres.js'
import type { Campaign, CampaignStore, DraftChange } from '../types.js'

/** The segment's recipients, as a WHERE clause over `waitlist` with parameters $1 to $17 (segmentParams). */
const SEGMENT_WHERE = `waitlist.unsubscribed_at IS NULL
  AND ($1::boolean OR $17::boolean OR waitlist.confirmed_at IS NOT NULL)
  AND (CASE WHEN $17::boolean THEN waitlist.import_id IS NOT NULL ELSE waitlist.import_id IS NULL OR waitlist.confirmed_at IS NOT NULL END)
  AND ($2::text[] IS NULL OR waitlist.role = ANY($2))
  AND ($3::text[] IS NULL OR waitlist.country = ANY($3))
  AND (($4::text[] IS NULL AND $12::text[] IS NULL AND $13::text[] IS NULL) OR EXISTS (SELECT 1 FROM signup_breeds AS named
    WHERE named.signup_id = waitlist.id
      AND ($4::text[] IS NULL OR named.breed = ANY($4) OR (named.breed IS NULL AND named.name_key = ANY($11::text[])))
      AND ($12::text[] IS NULL OR named.side = ANY($12))
      AND ($13::text[] IS NULL OR named.breed || '|' || waitlist.country = ANY($13))))
  AND ($5::timestamptz IS NULL OR waitlist.created_at >= $5)
  AND ($6::timestamptz IS NULL OR waitlist.created_at < $6)
  AND ($7::text[] IS NULL OR coalesce(waitlist.utm_source, waitlist.referrer) = ANY($7))
  AND ($8::int IS NULL OR (SELECT count(*) FROM waitlist AS invitee
    WHERE invitee.invited_by = waitlist.id AND invitee.invite_credited_at IS NOT NULL) >= $8)
    AND ($9::text[] IS NULL OR waitlist.country = ANY($9))
  AND ($10::text[] IS NULL OR waitlist.locale = ANY($10))
  AND ($14::text[] IS NULL OR coalesce(waitlist.platform, 'other') = ANY($14))
  AND ($15::boolean IS NULL OR EXISTS (SELECT 1 FROM app_links
    WHERE app_links.signup_id = waitlist.id AND app_links.claimed_at IS NOT NULL) = $15)
  AND ($16::text[] IS NULL OR waitlist.partner_id::text = ANY($16))`

const segmentParams = (f: SegmentFilter) => [
  f.includeUnconfirmed,
  f.roles,
  f.countries,
  f.breedIds,
  f.since,
  f.until,
  f.sources,
  f.invitedAtLeast,
  f.readyCountries,
  f.locales,
  f.breedKeys,
  f.sides,
  f.readyPairs,
  f.platforms,
  f.claimed,
  f.partners,
  f.imported,
]

export function createPostgresCampaigns(
  pool: pg.Pool,
  run: Run,
  growth: { readyOn(db: pg.Pool | pg.PoolClient): Promise<string[]> },
  breeds: {
    readyOn(db: pg.Pool | pg.PoolClient): Promise<string[]>
    mappingsOn(db: pg.Pool | pg.PoolClient, keys: readonly string[]): Promise<Map<string, string>>
  },
): CampaignStore {
  /**
   * The segment as parameters, what it depends on worked out now (on the caller's connection, inside
   * its transaction): the ready countries and breeds, and the mappings of the names it gives.
   */
  const paramsOf = async (segment: Segment, db: pg.Pool | pg.PoolClient = pool) =>
    segmentParams(
      segmentFilter(segment, {
        readyCountries: segment.readyCountries ? await growth.readyOn(db) : [],
        readyPairs: segment.readyBreeds ? await breeds.readyOn(db) : [],
        mappings: await breeds.mappingsOn(db, mappedKeysOf(segment)),
      }),
    )
  type Row = {
    id: string
    subject: string
    segment: Segment
    status: 'draft' | 'sending' | 'paused'
    recipients: number
    created_at: string
  }

  async function progress(id: number | null): Promise<CampaignProgress[]> {
    const rows = await pool.query<Row>(
      `SELECT id::text AS id, subject, segment, status, recipients, ${iso('created_at')} AS created_at, paused_reason FROM campaigns
       WHERE $1::bigint IS NULL OR id = $1 ORDER BY campaigns.id DESC`,
      [id],
    )
    return progressOf(
      rows.rows.map((row) => ({ ...row, id: Number(row.id) })),
      await readTallies(pool, PROGRESS_TALLIES, id === null ? undefined : [String(id)]),
    )
  }

  /** After a change to a draft that touched no row: was it sent, or is there none? */
  const missed = async (db: pg.Pool | pg.PoolClient, id: number): Promise<DraftChange | undefined> =>
    ((await db.query('SELECT 1 FROM campaigns WHERE id = $1', [id])).rowCount ?? 0) > 0 ? 'sent' : undefined

  return {
    count: (segment) =>
      run(async () => {
        const result = await pool.query<{ n: string }>(`SELECT count(*) AS n FROM waitlist WHERE ${SEGMENT_WHERE}`, await paramsOf(segment))
        return Number(result.rows[0]?.n ?? 0)
      }),
    create: (campaign) =>
      run(async () => {
        const result = await pool.query<{ id: string }>(
          'INSERT INTO campaigns (subject, markdown, translations, segment) VALUES ($1, $2, $3, $4) RETURNING id::text AS id',
          [campaign.subject, campaign.markdown, JSON.stringify(campaign.translations), JSON.stringify(campaign.segment)],
        )
        return Number(result.rows[0]?.id)
      }),
    get: (id) =>
      run(async () => {
        const result = await pool.query<Campaign & { id: string }>(
          'SELECT id::text AS id, subject, markdown, translations, segment FROM campaigns WHERE id = $1',
          [id],
        )
        const row = result.rows[0]
        return row ? { ...row, id: Number(row.id) } : undefined
      }),
    update: (id, campaign) =>
      run(async () => {
        const changed = await pool.query(
          `UPDATE campaigns SET subject = $2, markdown = $3, translations = $4, segment = $5 WHERE id = $1 AND status = 'draft'`,
          [id, campaign.subject, campaign.markdown, JSON.stringify(campaign.translations), JSON.stringify(campaign.segment)],
        )
        return (changed.rowCount ?? 0) > 0 ? 'draft' : missed(pool, id)
      }),
    remove: (id, audit) =>
      run(() =>
        inTransaction(pool, async (client) => {
          const removed = await client.query(`DELETE FROM campaigns WHERE id = $1 AND status = 'draft'`, [id])
          if ((removed.rowCount ?? 0) === 0) return missed(client, id)
          if (audit) await writeAudit(client, audit)
          return 'draft' as const
        }),
      ),
    progress: (id) => run(async () => (await progress(id))[0]),
    list: () => run(() => progress(null)),
    // One transaction: the status moves from draft once (a concurrent send waits for the row
    // lock, then finds it sent), and every recipient's row is made with it; the unique index on
    // (campaign_id, signup_id) is the second guard.
    send: (id, audit) =>
      run(() =>
        inTransaction(pool, async (client) => {
          const started = await client.query<{ segment: Segment }>(
            `UPDATE campaigns SET status = 'sending', sent_at = now() WHERE id = $1 AND status = 'draft' RETURNING segment`,
            [id],
          )
          const segment = started.rows[0]?.segment
          if (!segment) {
            const current = await client.query<{ recipients: number }>('SELECT recipients FROM campaigns WHERE id = $1', [id])
            const row = current.rows[0]
            return row ? { recipients: row.recipients, queued: 0 } : undefined
          }
          const params = await paramsOf(segment, client)
          // The campaign's id after the segment's parameters.
          const queued = await client.query(
            `INSERT INTO outbox (signup_id, kind, campaign_id)
             SELECT waitlist.id, 'campaign', $${params.length + 1} FROM waitlist WHERE ${SEGMENT_WHERE}
             ON CONFLICT DO NOTHING`,
            [...params, id],
          )
          const recipients = queued.rowCount ?? 0
          await client.query('UPDATE campaigns SET recipients = $2 WHERE id = $1', [id, recipients])
          if (audit) await writeAudit(client, { ...audit, detail: { ...audit.detail, recipients } })
          return { recipients, queued: recipients }
        }),
      ),
    isSending: (id) =>
      run(async () => ((await pool.query(`SELECT 1 FROM campaigns WHERE id = $1 AND status = 'sending'`, [id])).rowCount ?? 0) > 0),
    setPaused: (id, paused, audit) =>
      run(() =>
        inTransaction(pool, async (client) => {
          const changed = await client.query(
            `UPDATE campaigns SET status = CASE WHEN $2 THEN 'paused' ELSE 'sending' END, paused_reason = NULL
             WHERE id = $1 AND status IN ('sending', 'paused')`,
            [id, paused],
          )
          if ((changed.rowCount ?? 0) > 0 && audit) await writeAudit(client, audit)
          return ((await client.query('SELECT 1 FROM campaigns WHERE id = $1', [id])).rowCount ?? 0) > 0
        }),
      ),
  }
}
