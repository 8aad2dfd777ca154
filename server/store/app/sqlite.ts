// App links in SQLite (docs/decisions/022-into-the-app.md): a link opened in a browser (counted the
// first time), the claim that hands the profile to the app once, and the hand-off's figures. The
// links are made by the outbox's claim (outbox/sqlite.ts), with their first campaign mail.
import type Database from 'better-sqlite3'
import { createSqliteProfiles } from '../breeds/sqlite.js'
import { auditWriter, now, type Run } from '../shared/sqlite.js'
import type { SqliteTallies } from '../tallies/sqlite.js'
import type { AppLinkRecord, AppStore, AuditEntry } from '../types.js'
import { appProfileOf, type ClaimedSignup, HAND_OFF_TALLIES, handOffOf } from './shared.js'

export function createSqliteApp(db: Database.Database, run: Run, tallies: SqliteTallies): AppStore {
  const writeAudit = auditWriter(db)
  const profiles = createSqliteProfiles(db)
  const link = db.prepare(
    `SELECT app_links.signup_id AS signupId, waitlist.locale, app_links.claimed_at IS NOT NULL AS claimed
     FROM app_links JOIN waitlist ON waitlist.id = app_links.signup_id WHERE code = ?`,
  )
  // Only the first serving counts (the trigger counts the change from null).
  const markOpened = db.prepare('UPDATE app_links SET opened_at = @now WHERE code = @code AND opened_at IS NULL AND claimed_at IS NULL')
  const spend = db.prepare(
    'UPDATE app_links SET claimed_at = @now, claimed_by = @tokenId WHERE signup_id = @signupId AND claimed_at IS NULL',
  )
  const signup = db.prepare(
    'SELECT email, locale, country, role, platform, kennel_club, litters, created_at, confirmed_at FROM waitlist WHERE id = ?',
  )
  const claimedBy = db.prepare<[string, number], { signupId: number }>(
    'SELECT signup_id AS signupId FROM app_links WHERE code = ? AND claimed_by = ? AND claimed_at IS NOT NULL',
  )
  const profileOf = (signupId: number) => {
    const head = signup.get(signupId) as ClaimedSignup
    const profile = profiles.read(signupId) ?? { role: null, breeds: [], country: null, club: null, litters: null }
    return appProfileOf(head, profile)
  }
  type Found = Omit<AppLinkRecord, 'claimed'> & { claimed: number }
  const find = (code: string): AppLinkRecord | undefined => {
    const row = link.get(code) as Found | undefined
    return row && { ...row, claimed: row.claimed === 1 }
  }
  const open = db.transaction((code: string, opened: boolean) => {
    if (opened) markOpened.run({ code, now: now() })
    return find(code)
  })
  const claim = db.transaction((code: string, tokenId: number | null, audit: (signupId: number) => AuditEntry) => {
    const found = find(code)
    if (!found) return undefined
    if (found.claimed || spend.run({ signupId: found.signupId, tokenId, now: now() }).changes === 0) return 'claimed' as const
    writeAudit(audit(found.signupId))
    return profileOf(found.signupId)
  })
  const claimedProfile = db.transaction((code: string, tokenId: number) => {
    const claimed = claimedBy.get(code, tokenId)
    return claimed && profileOf(claimed.signupId)
  })
  return {
    open: (code, opened) => run(() => (opened ? open.immediate(code, true) : find(code))),
    claim: (code, tokenId, audit) => run(() => claim.immediate(code, tokenId, audit)),
    claimedProfile: (code, tokenId) => run(() => claimedProfile(code, tokenId)),
    handOff: (breed = null) => run(() => handOffOf(tallies.readNow(HAND_OFF_TALLIES), breed)),
  }
}
