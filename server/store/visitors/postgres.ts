// A sign-up's own page in PostgreSQL, the same as visitors/sqlite.ts.
import type pg from 'pg'
import { DAILY_INVITE_CREDITS } from '../../../contract/growth.js'
import { newInviteCode } from '../../secrets.js'
import { readProfile, saveProfile } from '../breeds/postgres.js'
import { inTransaction, iso, type Run } from '../shared/postgres.js'
import { SIGNUP_COLUMNS } from '../signups/postgres.js'
import type { InviteCounts, Visitor, VisitorData, VisitorStore } from '../types.js'
import { appDataOf } from './shared.js'

async function inviteCounts(pool: pg.Pool, id: number): Promise<InviteCounts> {
  const result = await pool.query<InviteCounts>(
    'SELECT count(*)::int AS joined, count(invite_credited_at)::int AS confirmed FROM waitlist WHERE invited_by = $1',
    [id],
  )
  return result.rows[0] ?? { joined: 0, confirmed: 0 }
}

export function createPostgresVisitors(pool: pg.Pool, run: Run): VisitorStore {
  return {
    byToken: (tokenHash) =>
      run(async () => {
        const result = await pool.query<Omit<Visitor, 'profile' | 'id'> & { id: string }>(
          `SELECT waitlist.id::text AS id, email, ${iso('waitlist.created_at')} AS created_at, ${iso('confirmed_at')} AS confirmed_at,
             ${iso('unsubscribed_at')} AS unsubscribed_at, invite_code, locale, platform, app_links.code AS app_code,
             ${iso('app_links.claimed_at')} AS claimed_at
           FROM page_tokens JOIN waitlist ON waitlist.id = page_tokens.signup_id LEFT JOIN app_links ON app_links.signup_id = waitlist.id
           WHERE token_hash = $1`,
          [tokenHash],
        )
        const row = result.rows[0]
        const profile = row && (await readProfile(pool, Number(row.id)))
        return row && profile ? { ...row, id: Number(row.id), profile } : undefined
      }),
    // One transaction: the confirmation, the code, and the inviter's credit decided together. The
    // inviter's row is locked while its credits are counted, so two invitees confirming at once
    // are counted one after the other and the daily limit holds. Rows are locked newest first
    // (an inviter is always older than the sign-up it invited), so two confirmations never deadlock.
    confirm: (id) =>
      run(() =>
        inTransaction(pool, async (client) => {
          const before = await client.query<{ confirmed: boolean; invited_by: string | null }>(
            'SELECT confirmed_at IS NOT NULL AS confirmed, invited_by::text FROM waitlist WHERE id = $1 FOR UPDATE',
            [id],
          )
          const row = before.rows[0]
          if (!row) return
          await client.query(
            'UPDATE waitlist SET confirmed_at = coalesce(confirmed_at, now()), invite_code = coalesce(invite_code, $2) WHERE id = $1',
            [id, newInviteCode()],
          )
          if (row.confirmed || row.invited_by === null) return
          const inviter = await client.query<{ subscribed: boolean }>(
            'SELECT unsubscribed_at IS NULL AS subscribed FROM waitlist WHERE id = $1 FOR UPDATE',
            [row.invited_by],
          )
          if (!inviter.rows[0]?.subscribed) return
          const credits = await client.query<{ n: number }>(
            `SELECT count(*)::int AS n FROM waitlist
             WHERE invited_by = $1 AND invite_credited_at >= date_trunc('day', now() AT TIME ZONE 'UTC') AT TIME ZONE 'UTC'`,
            [row.invited_by],
          )
          if ((credits.rows[0]?.n ?? 0) >= DAILY_INVITE_CREDITS) return
          await client.query('UPDATE waitlist SET invite_credited_at = now() WHERE id = $1', [id])
        }),
      ),
    invites: (id) => run(() => inviteCounts(pool, id)),
    setLocale: (id, locale) => run(async () => void (await pool.query('UPDATE waitlist SET locale = $2 WHERE id = $1', [id, locale]))),
    setPlatform: (id, platform) =>
      run(async () => void (await pool.query('UPDATE waitlist SET platform = $2 WHERE id = $1', [id, platform]))),
    saveProfile: (id, profile) => run(() => saveProfile(pool, id, profile)),
    setSubscribed: (id, subscribed) =>
      run(() =>
        inTransaction(pool, async (client) => {
          if (subscribed) {
            await client.query('UPDATE waitlist SET unsubscribed_at = NULL WHERE id = $1', [id])
            return
          }
          await client.query('UPDATE waitlist SET unsubscribed_at = coalesce(unsubscribed_at, now()) WHERE id = $1', [id])
          // Mails not yet under way are not sent to an address that stopped e-mails.
          await client.query(
            `UPDATE outbox SET state = 'failed', token = NULL, last_error = 'unsubscribed' WHERE signup_id = $1 AND state = 'queued'`,
            [id],
          )
        }),
      ),
    remove: (id) => run(async () => void (await pool.query('DELETE FROM waitlist WHERE id = $1', [id]))),
    data: (id) =>
      run(async () => {
        const signup = await pool.query<VisitorData['signup'] & { id: string }>(
          `SELECT ${SIGNUP_COLUMNS}, ${iso('confirmation_queued_at')} AS confirmation_queued_at FROM waitlist WHERE id = $1`,
          [id],
        )
        const row = signup.rows[0]
        if (!row) throw new Error(`no sign-up ${id}`)
        const mails = await pool.query<VisitorData['mails'][number]>(
          `SELECT kind, state, attempts, ${iso('created_at')} AS created_at, ${iso('sent_at')} AS sent_at FROM outbox WHERE signup_id = $1 ORDER BY id`,
          [id],
        )
        const links = await pool.query<{ n: string }>('SELECT count(*) AS n FROM page_tokens WHERE signup_id = $1', [id])
        const code = await pool.query<{ invite_code: string | null }>('SELECT invite_code FROM waitlist WHERE id = $1', [id])
        const app = await pool.query<{
          code: string
          created_at: string
          invited_at: string | null
          opened_at: string | null
          claimed_at: string | null
        }>(
          `SELECT code, ${iso('created_at')} AS created_at, ${iso('invited_at')} AS invited_at, ${iso('opened_at')} AS opened_at,
             ${iso('claimed_at')} AS claimed_at FROM app_links WHERE signup_id = $1`,
          [id],
        )
        return {
          signup: { ...row, id: Number(row.id) },
          mails: mails.rows,
          page_links: Number(links.rows[0]?.n ?? 0),
          invite: { code: code.rows[0]?.invite_code ?? null, ...(await inviteCounts(pool, id)) },
          profile: (await readProfile(pool, id)) ?? { role: null, breeds: [], country: null, club: null, litters: null },
          app: appDataOf(app.rows[0]),
        }
      }),
  }
}
