// App links in PostgreSQL, the same as app/sqlite.ts. A claim takes the link's row lock: two claims
// of one code at once are one 200 and one 409.
import type pg from 'pg'
import { readProfile } from '../breeds/postgres.js'
import { inTransaction, iso, type Queryable, type Run, writeAudit } from '../shared/postgres.js'
import { readTallies } from '../tallies/postgres.js'
import type { AppLinkRecord, AppStore } from '../types.js'
import { appProfileOf, type ClaimedSignup, HAND_OFF_TALLIES, handOffOf } from './shared.js'

const LINK = `SELECT app_links.signup_id::int AS "signupId", waitlist.locale, app_links.claimed_at IS NOT NULL AS claimed
  FROM app_links JOIN waitlist ON waitlist.id = app_links.signup_id WHERE code = $1`

/** The profile of a sign-up as the claim answers it (in the claim's transaction, or from the pool). */
async function profileOf(db: Queryable, id: number) {
  const head = await db.query<ClaimedSignup>(
    `SELECT email, locale, country, role, platform, kennel_club, litters, ${iso('created_at')} AS created_at,
       ${iso('confirmed_at')} AS confirmed_at FROM waitlist WHERE id = $1`,
    [id],
  )
  const profile = (await readProfile(db, id)) ?? { role: null, breeds: [], country: null, club: null, litters: null }
  const signup = head.rows[0]
  if (!signup) throw new Error(`app link of no sign-up ${id}`)
  return appProfileOf(signup, profile)
}

export function createPostgresApp(pool: pg.Pool, run: Run): AppStore {
  return {
    open: (code, opened) =>
      run(async () => {
        // Only the first serving counts (the trigger counts the change from null).
        if (opened)
          await pool.query('UPDATE app_links SET opened_at = now() WHERE code = $1 AND opened_at IS NULL AND claimed_at IS NULL', [code])
        return (await pool.query<AppLinkRecord>(LINK, [code])).rows[0]
      }),
    claim: (code, tokenId, audit) =>
      run(() =>
        inTransaction(pool, async (client) => {
          const spent = await client.query<{ signup_id: string }>(
            'UPDATE app_links SET claimed_at = now(), claimed_by = $2 WHERE code = $1 AND claimed_at IS NULL RETURNING signup_id::text',
            [code, tokenId],
          )
          const id = spent.rows[0] === undefined ? undefined : Number(spent.rows[0].signup_id)
          if (id === undefined) return ((await client.query(LINK, [code])).rowCount ?? 0) > 0 ? ('claimed' as const) : undefined
          await writeAudit(client, audit(id))
          return profileOf(client, id)
        }),
      ),
    claimedProfile: (code, tokenId) =>
      run(async () => {
        const claimed = await pool.query<{ id: number }>(
          'SELECT signup_id::int AS id FROM app_links WHERE code = $1 AND claimed_by = $2 AND claimed_at IS NOT NULL',
          [code, tokenId],
        )
        const id = claimed.rows[0]?.id
        return id === undefined ? undefined : profileOf(pool, id)
      }),
    handOff: (breed = null) => run(async () => handOffOf(await readTallies(pool, HAND_OFF_TALLIES), breed)),
  }
}
