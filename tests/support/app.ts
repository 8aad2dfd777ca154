// People taken into the app as the app takes them: each sign-up's app link (written to the store, as
// a campaign mail's claim makes one) claimed over POST /api/app/claim with an `app`-role token.
import { APP_CLAIM_PATH } from '../../contract/app'
import type { TestServer } from './server'
import { runSql, sameSql } from './team'

/** A code as the server's are (22 characters of base64url), told apart by the sign-up's id. */
const codeOf = (signupId: number) => `claim${signupId}`.padEnd(22, 'x')

/** Each sign-up's app link made and claimed through `server` with `appToken` (an `app`-role token). */
export async function claimInApp(server: TestServer, appToken: string, signupIds: readonly number[]): Promise<void> {
  for (const id of signupIds) {
    await runSql(server, sameSql('INSERT INTO app_links (signup_id, code) VALUES (?, ?)'), [id, codeOf(id)])
    const answer = await fetch(`${server.url}${APP_CLAIM_PATH}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${appToken}` },
      body: JSON.stringify({ code: codeOf(id) }),
    })
    if (answer.status !== 200) throw new Error(`the claim of sign-up ${id} answered ${answer.status}: ${await answer.text()}`)
  }
}
