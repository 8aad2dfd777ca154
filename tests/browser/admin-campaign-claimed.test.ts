// A reminder wave to those not in the app yet, from the composer (issue 49, item 6), on both stores:
// "In the app" offers either (the default), yes and no; the count the composer shows for "not in the
// app yet" is the one the admin API's draft and the command line's dry run give for that segment.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { adminContent } from '../support/admin-words'
import { claimInApp } from '../support/app'
import { useServerAndBrowser } from '../support/browser-suite'
import { chromiumAvailable } from '../support/chromium'
import { runCli } from '../support/process'
import { row } from '../support/rows'
import { STORES } from '../support/stores'
import { asOperator, joinTeam, ownerIn } from '../support/team'

const copy = adminContent.campaigns
const answers = { either: copy.tristate('claimed', 'either'), yes: copy.tristate('claimed', 'yes'), no: copy.tristate('claimed', 'no') }

/** Five confirmed sign-ups; the app has taken the first two. */
const PEOPLE = ['in.app.1@example.com', 'in.app.2@example.com', 'waiting.1@example.com', 'waiting.2@example.com', 'waiting.3@example.com']
const IN_APP = 2

describe.skipIf(!chromiumAvailable).each(STORES)('who is in the app, in the composer on $kind', ({ kind, available }) => {
  const suite = useServerAndBrowser(
    { MAIL_RATE_PER_SECOND: '0' },
    {
      kind,
      available,
      seed: async (server) => {
        const { store } = server.app
        const ids = []
        for (const email of PEOPLE) {
          await store.add(row(email))
          const id = (await store.list({ limit: 1, search: email }))[0]?.id ?? 0
          await store.visitors.confirm(id)
          ids.push(id)
        }
        // The app's token, made by an owner as the Team view makes one.
        const owner = await joinTeam(server, 'owner@kennect.example', 'owner')
        const made = await asOperator(server, owner)('/tokens', { method: 'POST', body: { name: 'the app', role: 'app' } })
        if (made.status !== 201) throw new Error(`the app's token answered ${made.status}`)
        await claimInApp(server, ((await made.json()) as { token: string }).token, ids.slice(0, IN_APP))
      },
    },
  )
  const dir = mkdtempSync(join(tmpdir(), 'kennect-claimed-'))
  afterAll(() => rmSync(dir, { recursive: true, force: true }))

  it.skipIf(!available)('an owner counts a wave to those not in the app yet: the count the API and the command line give', async () => {
    const { server } = suite
    const context = await suite.browser.newContext({ viewport: { width: 1280, height: 900 } })
    const owner = await ownerIn(context, server)
    const page = await context.newPage()
    await page.goto(`${server.url}/admin/campaigns`)

    // The same segment through the API's draft and the command line's dry run.
    const api = asOperator(server, owner)
    const drafted = await api('/campaigns', {
      method: 'POST',
      body: { subject: 'Reminder', markdown: 'Hello.', segment: { claimed: false }, send: false },
    })
    expect(drafted.status, await drafted.clone().text()).toBe(201)
    const message = join(dir, 'reminder.md')
    writeFileSync(message, 'Hello.\n')
    const { SQLITE_PATH, DATABASE_URL } = server.config
    const dry = await runCli(
      kind === 'postgres' ? { DATABASE_URL: DATABASE_URL ?? '' } : { SQLITE_PATH },
      ...['campaign', 'create', '--subject', 'Reminder', '--markdown-file', message, '--claimed', 'no', '--dry-run'],
    )
    expect(dry.code, dry.stderr).toBe(0)
    const counted = [
      ((await drafted.json()) as { recipients: number }).recipients,
      Number(/dry run: (\d+) recipient/.exec(dry.stdout)?.[1]),
    ]
    expect(counted).toEqual([PEOPLE.length - IN_APP, PEOPLE.length - IN_APP])

    // The composer's group: either until another is chosen.
    const group = page.getByRole('group', { name: copy.claimed })
    await group.waitFor()
    expect(await group.getByRole('radio', { name: answers.either }).isChecked()).toBe(true)
    await page.getByLabel(copy.subject, { exact: true }).fill('Not in the app yet')
    await group.getByRole('radio', { name: answers.no }).check()
    const saved = page.waitForResponse(
      (response) => /\/admin\/api\/campaigns$/.test(response.url()) && response.request().method() === 'POST',
    )
    await page.getByRole('button', { name: copy.preview }).click()
    const draft = (await (await saved).json()) as { id: number; recipients: number }
    await page.getByRole('region', { name: copy.recipients(PEOPLE.length - IN_APP) }).waitFor()
    expect(draft.recipients).toBe(PEOPLE.length - IN_APP)
    expect(((await (await api(`/campaigns/${draft.id}/draft`)).json()) as { segment: unknown }).segment).toEqual({ claimed: false })

    // Those in the app, then either again: everyone.
    await group.getByRole('radio', { name: answers.yes }).check()
    await page.getByRole('button', { name: copy.preview }).click()
    await page.getByRole('region', { name: copy.recipients(IN_APP) }).waitFor()
    await group.getByRole('radio', { name: answers.either }).check()
    await page.getByRole('button', { name: copy.preview }).click()
    await page.getByRole('region', { name: copy.recipients(PEOPLE.length) }).waitFor()
    expect(((await (await api(`/campaigns/${draft.id}/draft`)).json()) as { segment: unknown }).segment).toEqual({})
    await context.close()
  })
})
