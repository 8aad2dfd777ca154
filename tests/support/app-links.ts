// App links for the hand-off's tests (docs/decisions/022-into-the-app.md): confirmed sign-ups, a
// campaign mail each (the outbox's claim makes each one's code with it), and their codes as their
// data download gives them; an `app` token made as an owner makes one.
import type { FastifyInstance } from 'fastify'
import { outboxSettled } from './outbox'
import { row } from './rows'

/** Each address's app code, in the order given: the addresses join, confirm and get a campaign mail. */
export async function appCodes(app: FastifyInstance, emails: readonly string[]): Promise<string[]> {
  const { store } = app
  const ids: number[] = []
  for (const email of emails) {
    await store.add(row(email))
    const [listed] = await store.list({ limit: 1, search: email })
    if (!listed) throw new Error(`${email} did not join`)
    await store.visitors.confirm(listed.id)
    ids.push(listed.id)
  }
  const campaign = await store.campaigns.create({ subject: 'Into the app', markdown: '{{app_link}}', translations: {}, segment: {} })
  await store.campaigns.send(campaign)
  app.mailer.nudge()
  await outboxSettled(store)
  const codes: string[] = []
  for (const [i, id] of ids.entries()) {
    const code = (await store.visitors.data(id)).app.code
    if (!code) throw new Error(`no app link for ${emails[i]}`)
    codes.push(code)
  }
  return codes
}

/** A new `app` token, made through the admin API with ADMIN_TOKEN. */
export async function appToken(url: string, adminToken: string, name: string): Promise<string> {
  const answer = await fetch(`${url}/admin/api/tokens`, {
    method: 'POST',
    headers: { authorization: `Bearer ${adminToken}`, 'content-type': 'application/json' },
    body: JSON.stringify({ name, role: 'app' }),
  })
  if (answer.status !== 201) throw new Error(`no app token: ${answer.status} ${await answer.text()}`)
  return ((await answer.json()) as { token: string }).token
}
