// A sign-up's own page in SQLite (docs/decisions/012-the-visitors-page.md): opened by its token,
// confirmed once (crediting its inviter), its profile, language and e-mails, its data, its deletion.
import type Database from 'better-sqlite3'
import { DAILY_INVITE_CREDITS } from '../../../contract/growth.js'
import { newInviteCode } from '../../secrets.js'
import { createSqliteProfiles } from '../breeds/sqlite.js'
import { now, type Run, utcDay } from '../shared/sqlite.js'
import { SIGNUP_COLUMNS, type SignUpRow } from '../signups/sqlite.js'
import type { InviteCounts, Visitor, VisitorData, VisitorStore } from '../types.js'
import { appDataOf } from './shared.js'

export function createSqliteVisitors(db: Database.Database, run: Run): VisitorStore {
  const byToken = db.prepare(
    `SELECT waitlist.id, email, waitlist.created_at, confirmed_at, unsubscribed_at, invite_code, locale, platform,
       app_links.code AS app_code, app_links.claimed_at
     FROM page_tokens JOIN waitlist ON waitlist.id = page_tokens.signup_id LEFT JOIN app_links ON app_links.signup_id = waitlist.id
     WHERE token_hash = ?`,
  )
  const before = db.prepare('SELECT confirmed_at, invited_by FROM waitlist WHERE id = ?')
  const setConfirmed = db.prepare(
    'UPDATE waitlist SET confirmed_at = coalesce(confirmed_at, @now), invite_code = coalesce(invite_code, @code) WHERE id = @id',
  )
  const inviterSubscribed = db.prepare('SELECT unsubscribed_at IS NULL FROM waitlist WHERE id = ?').pluck()
  const creditsBetween = db
    .prepare('SELECT count(*) FROM waitlist WHERE invited_by = @inviter AND invite_credited_at >= @start AND invite_credited_at < @end')
    .pluck()
  const credit = db.prepare('UPDATE waitlist SET invite_credited_at = @now WHERE id = @id')
  // One transaction: the confirmation, the code, and the inviter's credit decided together.
  const confirm = db.transaction((id: number) => {
    const row = before.get(id) as { confirmed_at: string | null; invited_by: number | null } | undefined
    if (!row) return
    const at = now()
    setConfirmed.run({ id, now: at, code: newInviteCode() })
    if (row.confirmed_at !== null || row.invited_by === null) return
    if (inviterSubscribed.get(row.invited_by) !== 1) return
    if (Number(creditsBetween.get({ inviter: row.invited_by, ...utcDay(at) })) >= DAILY_INVITE_CREDITS) return
    credit.run({ id, now: at })
  })
  const inviteCounts = db.prepare('SELECT count(*) AS joined, count(invite_credited_at) AS confirmed FROM waitlist WHERE invited_by = ?')
  const inviteCode = db.prepare('SELECT invite_code FROM waitlist WHERE id = ?').pluck()
  const profiles = createSqliteProfiles(db)
  const setLocale = db.prepare('UPDATE waitlist SET locale = @locale WHERE id = @id')
  const setPlatform = db.prepare('UPDATE waitlist SET platform = @platform WHERE id = @id')
  const appLink = db.prepare('SELECT code, created_at, invited_at, opened_at, claimed_at FROM app_links WHERE signup_id = ?')
  const subscribe = db.prepare('UPDATE waitlist SET unsubscribed_at = NULL WHERE id = ?')
  const unsubscribe = db.prepare('UPDATE waitlist SET unsubscribed_at = coalesce(unsubscribed_at, @now) WHERE id = @id')
  // Mails not yet under way are not sent to an address that stopped e-mails.
  const dropQueued = db.prepare(
    `UPDATE outbox SET state = 'failed', token = NULL, last_error = 'unsubscribed' WHERE signup_id = ? AND state = 'queued'`,
  )
  const remove = db.prepare('DELETE FROM waitlist WHERE id = ?')
  const signup = db.prepare(`SELECT ${SIGNUP_COLUMNS}, confirmation_queued_at FROM waitlist WHERE id = ?`)
  const mails = db.prepare('SELECT kind, state, attempts, created_at, sent_at FROM outbox WHERE signup_id = ? ORDER BY id')
  const links = db.prepare('SELECT count(*) FROM page_tokens WHERE signup_id = ?').pluck()
  return {
    byToken: (tokenHash) =>
      run(() => {
        const row = byToken.get(tokenHash) as Omit<Visitor, 'profile'> | undefined
        const profile = row && profiles.read(row.id)
        return row && profile ? { ...row, profile } : undefined
      }),
    confirm: (id) => run(() => confirm.immediate(id)),
    invites: (id) => run(() => inviteCounts.get(id) as InviteCounts),
    saveProfile: (id, profile) => run(() => profiles.save(id, profile)),
    setLocale: (id, locale) => run(() => void setLocale.run({ id, locale })),
    setPlatform: (id, platform) => run(() => void setPlatform.run({ id, platform })),
    setSubscribed: (id, subscribed) =>
      run(() =>
        db.transaction(() => {
          if (subscribed) subscribe.run(id)
          else {
            unsubscribe.run({ id, now: now() })
            dropQueued.run(id)
          }
        })(),
      ),
    remove: (id) => run(() => void remove.run(id)),
    data: (id) =>
      run(() => {
        const row = signup.get(id) as (SignUpRow & { confirmation_queued_at: string | null }) | undefined
        if (!row) throw new Error(`no sign-up ${id}`)
        const app = appLink.get(id) as
          { code: string; created_at: string; invited_at: string | null; opened_at: string | null; claimed_at: string | null } | undefined
        return {
          signup: { ...row, breeds: JSON.parse(row.breeds) as string[] },
          mails: mails.all(id) as VisitorData['mails'],
          page_links: Number(links.get(id)),
          invite: { code: (inviteCode.get(id) as string | null) ?? null, ...(inviteCounts.get(id) as InviteCounts) },
          profile: profiles.read(id) ?? { role: null, breeds: [], country: null, club: null, litters: null },
          app: appDataOf(app),
        }
      }),
  }
}
