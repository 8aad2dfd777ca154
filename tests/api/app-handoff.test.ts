// Into the app (issue 40; docs/decisions/022-into-the-app.md), on both stores, over HTTP to a real
// server mailing a real SMTP server: the two .well-known files byte for byte against their settings
// (and 404 without); three sign-ups joined from an iPhone, an Android phone and a desktop, each
// campaign mail holding its own app link and the store for its phone; the /app/ page for each
// phone; the claim with an app token (the profile), again (409), with a viewer's token (403),
// without one (401), after deletion (404), wrong codes throttled per client; signup.claimed
// delivered and verified; the phone said on the visitor's page; the funnel's and Who is waiting's counts.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { APP_CODE_PATTERN, type AppProfile, type Platform, WRONG_CODES_PER_CLIENT_PER_MINUTE } from '../../contract/app'
import type { Segments } from '../../contract/campaigns'
import type { Funnel } from '../../contract/growth'
import { USER_AGENTS } from '../support/devices'
import { outboxSettled } from '../support/outbox'
import { startReceiver, type Receiver } from '../support/receiver'
import { startServer, type TestServer } from '../support/server'
import { startSmtp, type ReceivedMail, type TestSmtp } from '../support/smtp'
import { STORES } from '../support/stores'
import { asOperator, joinTeam } from '../support/team'

const ADMIN_TOKEN = 'app-handoff-admin-token-0123456789'
const IOS_APP_ID = 'ABCDE12345.app.kennect.ios'
const ANDROID_PACKAGE = 'app.kennect.android'
const FINGERPRINT = '14:6d:e9:83:c5:73:06:50:d8:ee:b9:95:2f:34:fc:64:16:a0:83:42:e6:1d:be:a8:8a:04:96:b2:3f:cf:44:e5'
const SECOND_FINGERPRINT = `${'0a:'.repeat(31)}0b`
const APP_STORE_URL = 'https://apps.apple.com/app/kennect/id6400000000'
const PLAY_STORE_URL = 'https://play.google.com/store/apps/details?id=app.kennect.android'

/** What each file must be, written out here from the settings above, not by the server's code. */
const ASSOCIATION = `{"applinks":{"apps":[],"details":[{"appIDs":["${IOS_APP_ID}"],"components":[{"/":"/app/*"}],"appID":"${IOS_APP_ID}","paths":["/app/*"]}]}}`
const ASSET_LINKS = `[{"relation":["delegate_permission/common.handle_all_urls"],"target":{"namespace":"android_app","package_name":"${ANDROID_PACKAGE}","sha256_cert_fingerprints":["${FINGERPRINT.toUpperCase()}","${SECOND_FINGERPRINT.toUpperCase()}"]}}]`

const PEOPLE: { platform: Platform; email: string; locale: string }[] = [
  { platform: 'ios', email: 'iphone@example.com', locale: 'en' },
  { platform: 'android', email: 'android@example.com', locale: 'de' },
  { platform: 'other', email: 'desk@example.com', locale: 'fr' },
]

describe.each(STORES)('into the app on $kind', ({ kind, available }) => {
  let smtp: TestSmtp
  let server: TestServer
  let bare: TestServer
  let receiver: Receiver
  /** Each person's page token and sign-up id. */
  const people = new Map<Platform, { token: string; id: number; email: string }>()
  /** Each person's campaign mail, as their mailbox got it. */
  const mails = new Map<Platform, ReceivedMail>()
  let appToken = ''
  let viewerToken = ''

  const admin = (path: string, init: { method?: string; body?: unknown } = {}) =>
    fetch(`${server.url}/admin/api${path}`, {
      method: init.method ?? 'GET',
      headers: { authorization: `Bearer ${ADMIN_TOKEN}`, ...(init.body === undefined ? {} : { 'content-type': 'application/json' }) },
      ...(init.body === undefined ? {} : { body: JSON.stringify(init.body) }),
    })
  const form = (path: string, body: string, userAgent?: string) =>
    fetch(`${server.url}${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', ...(userAgent ? { 'user-agent': userAgent } : {}) },
      body,
      redirect: 'manual',
    })
  const claim = (code: unknown, token?: string) =>
    fetch(`${server.url}/api/app/claim`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...(token === undefined ? {} : { authorization: `Bearer ${token}` }) },
      body: JSON.stringify({ code }),
    })
  const makeToken = async (name: string, role: string) => {
    const answer = await admin('/tokens', { method: 'POST', body: { name, role } })
    expect(answer.status, await answer.clone().text()).toBe(201)
    return ((await answer.json()) as { token: string }).token
  }
  /** The links of a mail's text part, as its reader sees them. */
  const linksOf = (mail: ReceivedMail) => [...(mail.parsed.text ?? '').matchAll(/https?:\/\/\S+/g)].map((m) => m[0].replace(/[).,]+$/, ''))
  const appLinkOf = (platform: Platform) => {
    const mail = mails.get(platform)
    const link = mail && linksOf(mail).find((href) => href.startsWith(`${server.url.replace('127.0.0.1', 'localhost')}/app/`))
    if (!link) throw new Error(`no app link in the ${platform} mail`)
    return link
  }
  const codeOf = (platform: Platform) => appLinkOf(platform).split('/app/')[1] ?? ''

  beforeAll(async () => {
    if (!available) return
    smtp = await startSmtp()
    server = await startServer(
      {
        ADMIN_TOKEN,
        SMTP_URL: smtp.url,
        MAIL_RATE_PER_SECOND: '0',
        APP_STORE_URL,
        PLAY_STORE_URL,
        IOS_APP_ID,
        ANDROID_PACKAGE,
        ANDROID_CERT_SHA256: `${FINGERPRINT},${SECOND_FINGERPRINT.toUpperCase()}`,
        WEBHOOK_ALLOW_PRIVATE: '1',
        WEBHOOK_RETRY_SCALE: '0.02',
      },
      kind,
    )
    bare = await startServer({}, kind)
    receiver = await startReceiver()
    const endpoint = await admin('/webhooks', { method: 'POST', body: { url: receiver.url, events: ['signup.claimed'] } })
    expect(endpoint.status).toBe(201)
    receiver.secrets.push(((await endpoint.json()) as { secret: string }).secret)

    // Three people join, each from their own browser, and confirm from their mail.
    for (const person of PEOPLE) {
      const answer = await fetch(`${server.url}/rest/v1/waitlist`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'user-agent': USER_AGENTS[person.platform] },
        body: JSON.stringify({ email: person.email, locale: person.locale }),
      })
      expect(answer.status).toBe(201)
    }
    await smtp.waitForRecipients(PEOPLE.length)
    for (const person of PEOPLE) {
      const mail = smtp.received.find((m) => m.to === person.email)
      const token = /\/me\/([A-Za-z0-9_-]{43})\b/.exec(mail?.parsed.text ?? '')?.[1] ?? ''
      expect((await form(`/me/${token}/confirm`, '')).status).toBe(303)
      const [listed] = await server.app.store.list({ limit: 1, search: person.email })
      people.set(person.platform, { token, id: listed?.id ?? 0, email: person.email })
    }
    // The Android breeder tells us about them.
    const android = people.get('android')
    expect(
      (
        await form(
          `/me/${android?.token}/profile`,
          'role=breeder&breed-1=Labrador+Retriever&side-1=both&tests-1=hips&tests-1=eyes&breed-2=Dackel&side-2=stud&country=DE&club=VDH&litters=2',
        )
      ).status,
    ).toBe(303)
    smtp.received.length = 0
    appToken = await makeToken('the app', 'app')
    viewerToken = await makeToken('a viewer', 'viewer')
  })
  afterAll(async () => {
    await server?.close()
    await bare?.close()
    await smtp?.stop()
    await receiver?.close()
  })

  it.skipIf(!available)('serves the two .well-known files byte for byte as their settings say, and 404 without them', async () => {
    for (const [path, body] of [
      ['/.well-known/apple-app-site-association', ASSOCIATION],
      ['/.well-known/assetlinks.json', ASSET_LINKS],
    ] as const) {
      const answer = await fetch(`${server.url}${path}`, { redirect: 'manual' })
      expect(answer.status, path).toBe(200)
      expect(answer.headers.get('content-type')).toBe('application/json')
      expect(await answer.text()).toBe(body)
      // Without the apps' settings, nothing to say.
      const none = await fetch(`${bare.url}${path}`, { redirect: 'manual' })
      expect(none.status, path).toBe(404)
    }
  })

  it.skipIf(!available)('records the phone each join came from, and counts it on the demand map', async () => {
    const list = (await (await admin('/signups?limit=10')).json()) as { items: { email: string; platform: Platform | null }[] }
    expect(Object.fromEntries(list.items.map((item) => [item.email, item.platform]))).toEqual({
      'iphone@example.com': 'ios',
      'android@example.com': 'android',
      'desk@example.com': 'other',
    })
    const segments = (await (await admin('/segments')).json()) as Segments
    expect(segments.byPlatform.map((row) => [row.platform, row.total, row.confirmed]).sort()).toEqual([
      ['android', 1, 1],
      ['ios', 1, 1],
      ['other', 1, 1],
    ])
    expect(segments.byCountry.find((row) => row.country === 'DE')).toMatchObject({ breeders: 1, android: 1, ios: 0, total: 1 })
    // A segment of phones: `other` takes the phones of neither kind.
    for (const [platforms, recipients] of [
      [['ios'], 1],
      [['android', 'other'], 2],
    ] as const) {
      const draft = await admin('/campaigns', {
        method: 'POST',
        body: { subject: 'Count', markdown: 'Hello.', segment: { platforms }, send: false },
      })
      expect(((await draft.json()) as { recipients: number }).recipients).toBe(recipients)
    }
    expect(
      (await admin('/campaigns', { method: 'POST', body: { subject: 'S', markdown: 'x', segment: { platforms: ['nokia'] }, send: false } }))
        .status,
    ).toBe(400)
  })

  it.skipIf(!available)('mails each recipient their own app link and the store for their phone', async () => {
    const sent = await admin('/campaigns', {
      method: 'POST',
      body: {
        subject: 'Kennect is here',
        markdown: 'Open [your profile in the app]({{app_link}}), or [get the app]({{store_url}}).',
        segment: {},
        send: true,
      },
    })
    expect(sent.status, await sent.clone().text()).toBe(201)
    await smtp.waitForRecipients(PEOPLE.length)
    await outboxSettled(server.app.store)
    for (const person of PEOPLE) {
      const mail = smtp.received.find((m) => m.to === person.email)
      if (!mail) throw new Error(`no campaign mail to ${person.email}`)
      mails.set(person.platform, mail)
    }
    const codes = PEOPLE.map((person) => codeOf(person.platform))
    // Each link its own: a code of 128 random bits, URL-safe, not the page token.
    for (const [i, code] of codes.entries()) {
      expect(code).toMatch(APP_CODE_PATTERN)
      expect(code).not.toBe(people.get(PEOPLE[i]?.platform ?? 'ios')?.token)
    }
    expect(new Set(codes).size).toBe(3)
    const storeOf = (platform: Platform) => {
      const links = linksOf(mails.get(platform) as ReceivedMail)
      return links[links.indexOf(appLinkOf(platform)) + 1]
    }
    expect(storeOf('ios')).toBe(APP_STORE_URL)
    expect(storeOf('android')).toBe(`${PLAY_STORE_URL}&referrer=code%3D${codeOf('android')}`)
    // A phone of neither kind gets the app link, whose page offers both stores.
    expect(storeOf('other')).toBe(appLinkOf('other'))
    // The HTML part holds the same links.
    expect(mails.get('android')?.parsed.html).toContain(`href="${appLinkOf('android')}"`)
    // Each counted invited once.
    const funnel = (await (await admin('/funnel')).json()) as Funnel
    expect(funnel.handOff).toMatchObject({ invited: 3, opened: 0, claimed: 0 })
  })

  it.skipIf(!available)('shows an app link in a browser the store for its phone, counts it opened, and 404s an unknown code', async () => {
    const page = async (platform: Platform, device: Platform) => {
      const answer = await fetch(appLinkOf(platform).replace('localhost', '127.0.0.1'), {
        headers: { 'user-agent': USER_AGENTS[device] },
        redirect: 'manual',
      })
      return { answer, html: await answer.text() }
    }
    const iphone = await page('ios', 'ios')
    expect(iphone.answer.status).toBe(200)
    expect(iphone.answer.headers.get('x-robots-tag')).toBe('noindex, nofollow')
    expect(iphone.answer.headers.get('referrer-policy')).toBe('no-referrer')
    expect(iphone.answer.headers.get('cache-control')).toBe('no-store')
    expect(iphone.html).toContain(`href="${APP_STORE_URL}"`)
    expect(iphone.html).not.toContain('play.google.com')
    expect(iphone.html).toContain(codeOf('ios')) // for the app to ask for once
    const android = await page('android', 'android')
    expect(android.html).toContain(`href="${PLAY_STORE_URL.replace(/&/g, '&amp;')}&amp;referrer=code%3D${codeOf('android')}"`)
    expect(android.html).not.toContain('apps.apple.com')
    expect(android.html).toMatch(/<html lang="de"/)
    const desk = await page('other', 'other')
    expect(desk.html).toContain(`href="${APP_STORE_URL}"`)
    expect(desk.html).toContain('play.google.com')
    expect(desk.html).toMatch(/<html lang="fr"/)
    // Twice is one person opened; a bot's fetch is no one.
    await page('ios', 'ios')
    await fetch(appLinkOf('other').replace('localhost', '127.0.0.1'), { headers: { 'user-agent': 'Googlebot/2.1' } })
    const unknown = await fetch(`${server.url}/app/${'A'.repeat(22)}`)
    expect(unknown.status).toBe(404)
    expect(await unknown.text()).toMatch(/<html lang="en"/)
    const funnel = (await (await admin('/funnel')).json()) as Funnel
    expect(funnel.handOff).toMatchObject({ invited: 3, opened: 3, claimed: 0 })
  })

  it.skipIf(!available)('hands the profile to the app token once, refuses any other caller, and says so everywhere', async () => {
    const android = people.get('android')
    if (!android) throw new Error('no Android sign-up')
    // No token, a viewer's token, the break-glass token: none may claim, and the code stays unspent.
    expect((await claim(codeOf('android'))).status).toBe(401)
    expect((await claim(codeOf('android'), viewerToken)).status).toBe(403)
    expect((await claim(codeOf('android'), ADMIN_TOKEN)).status).toBe(403)
    expect((await claim(codeOf('android'), 'kennect_not-a-token-at-all-000000000000')).status).toBe(401)
    // An app token opens nothing of the admin API.
    expect((await fetch(`${server.url}/admin/api/segments`, { headers: { authorization: `Bearer ${appToken}` } })).status).toBe(403)
    // Bad input: a clear 400, nothing spent.
    const bad = await fetch(`${server.url}/api/app/claim`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${appToken}` },
      body: JSON.stringify({ code: 12 }),
    })
    expect(bad.status).toBe(400)
    expect(((await bad.json()) as { message: string }).message).toMatch(/code/)

    const answer = await claim(codeOf('android'), appToken)
    expect(answer.status, await answer.clone().text()).toBe(200)
    const profile = (await answer.json()) as AppProfile
    expect(profile).toEqual({
      email: 'android@example.com',
      locale: 'de',
      country: 'DE',
      role: 'breeder',
      platform: 'android',
      breeds: [
        { id: 'labrador-retriever', name: 'Labrador Retriever', side: 'both', tests: ['hips', 'eyes'] },
        { id: 'dachshund', name: 'Dackel', side: 'stud', tests: [] },
      ],
      kennelClub: 'VDH',
      litters: 2,
      signedUpAt: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/) as unknown as string,
      confirmedAt: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T/) as unknown as string,
    })
    // Spent: the same token from the same address gets the same profile again (an answer that was
    // lost), another token a 409; its page a 404 in the sign-up's language saying so.
    const lost = await claim(codeOf('android'), appToken)
    expect(lost.status).toBe(200)
    expect(await lost.json()).toEqual(profile)
    const again = await claim(codeOf('android'), await makeToken('another build', 'app'))
    expect(again.status).toBe(409)
    expect(((await again.json()) as { code: string }).code).toBe('already_claimed')
    const claimedPage = await fetch(appLinkOf('android').replace('localhost', '127.0.0.1'), {
      headers: { 'user-agent': USER_AGENTS.android },
    })
    expect(claimedPage.status).toBe(404)
    const claimedHtml = await claimedPage.text()
    expect(claimedHtml).toMatch(/<html lang="de"/)
    expect(claimedHtml).toContain('Schon in der App')

    // signup.claimed: delivered, verified, the sign-up's id and no address.
    await receiver.until((got) => got.some((event) => event.type === 'signup.claimed'))
    const event = receiver.received.find((r) => r.type === 'signup.claimed')
    expect(receiver.rejected).toBe(0)
    expect(event?.data).toMatchObject({ id: android.id, role: 'breeder', country: 'DE', locale: 'de' })
    expect(event?.data.claimedAt).toMatch(/^\d{4}-\d{2}-\d{2}T/)
    expect(JSON.stringify(event?.data)).not.toContain('@')

    // The audit log names the sign-up, never its address.
    const audit = (await (await admin('/audit?limit=20')).json()) as { items: { action: string; actor: string; target: string | null }[] }
    const line = audit.items.find((item) => item.action === 'profile claimed')
    expect(line).toMatchObject({ actor: 'token the app', target: `signup ${android.id}` })
    expect(JSON.stringify(line)).not.toContain('android@example.com')

    // The visitor's page says it moved, and their download says when.
    const page = await (await fetch(`${server.url}/me/${android.token}`)).text()
    expect(page).toContain('Ihr Profil ist am')
    const data = (await (await fetch(`${server.url}/me/${android.token}/data.json`)).json()) as {
      app: { claimed: boolean; claimed_at: string | null }
      signup: { platform: string; claimed_at: string | null }
    }
    expect(data.app.claimed).toBe(true)
    expect(data.app.claimed_at).toMatch(/^\d{4}-\d{2}-\d{2}T/)
    expect(data.signup).toMatchObject({ platform: 'android', claimed_at: data.app.claimed_at })

    // Counted: the funnel, per country and breed, and Who is waiting beside who waits.
    const funnel = (await (await admin('/funnel')).json()) as Funnel
    expect(funnel.handOff).toMatchObject({ invited: 3, opened: 3, claimed: 1 })
    // Per country as they said it then (the two others said none), per breed they named.
    expect(funnel.handOff.countries).toEqual([
      { country: '', invited: 2, opened: 2, claimed: 0 },
      { country: 'DE', invited: 1, opened: 1, claimed: 1 },
    ])
    expect(funnel.handOff.breeds).toEqual([
      { breed: 'dachshund', name: 'Dachshund', invited: 1, opened: 1, claimed: 1 },
      { breed: 'labrador-retriever', name: 'Labrador Retriever', invited: 1, opened: 1, claimed: 1 },
    ])
    // Each breed named in the operator's language, whether or not its people still wait.
    const wanda = await joinTeam(server, 'wanda@kennect.example', 'viewer')
    expect((await asOperator(server, wanda)('/me', { method: 'PATCH', body: { locale: 'pl' } })).status).toBe(200)
    const polish = (await (await asOperator(server, wanda)('/funnel')).json()) as Funnel
    expect(polish.handOff.breeds.map((b) => [b.breed, b.name])).toEqual([
      ['dachshund', 'Jamnik'],
      ['labrador-retriever', 'Labrador Retriever'],
    ])
    const labradors = (await (await admin('/funnel?breed=labrador-retriever')).json()) as Funnel
    expect(labradors.handOff).toEqual({
      invited: 1,
      opened: 1,
      claimed: 1,
      countries: [{ country: 'DE', invited: 1, opened: 1, claimed: 1 }],
      breeds: [{ breed: 'labrador-retriever', name: 'Labrador Retriever', invited: 1, opened: 1, claimed: 1 }],
    })
    const segments = (await (await admin('/segments')).json()) as Segments
    expect(segments.claimed).toBe(1)
    expect(segments.byCountry.find((row) => row.country === 'DE')?.claimed).toBe(1)
  })

  it.skipIf(!available)('answers 404 for a deleted sign-up: its code opens nothing, in the app or a browser', async () => {
    const desk = people.get('other')
    expect((await form(`/me/${desk?.token}/delete`, 'confirm=yes')).status).toBe(303)
    expect((await claim(codeOf('other'), appToken)).status).toBe(404)
    expect((await fetch(appLinkOf('other').replace('localhost', '127.0.0.1'))).status).toBe(404)
  })

  it.skipIf(!available)(
    'throttles wrong codes per client (token and address), without locking out the app: other clients go on',
    async () => {
      const guesser = await makeToken('a leaked build', 'app')
      for (let i = 0; i < WRONG_CODES_PER_CLIENT_PER_MINUTE; i++)
        expect((await claim(`${String(i).padStart(22, 'x')}`, guesser)).status).toBe(404)
      // Past the limit, even the right code waits: a guess learns nothing.
      const throttled = await claim(codeOf('ios'), guesser)
      expect(throttled.status).toBe(429)
      expect(Number(throttled.headers.get('retry-after'))).toBeGreaterThan(0)
      expect(Number(throttled.headers.get('retry-after'))).toBeLessThanOrEqual(60)
      // Another token from this address is another client, and the address is not locked out of the admin API.
      expect((await claim(codeOf('ios'), appToken)).status).toBe(200)
      expect((await admin('/segments')).status).toBe(200)
    },
  )

  it.skipIf(!available)(
    'lets a visitor say which phone they use; their next {{store_url}} follows it, and a bad value changes nothing',
    async () => {
      const ios = people.get('ios')
      expect((await form(`/me/${ios?.token}/phone`, 'platform=nokia')).status).toBe(400)
      expect((await form(`/me/${ios?.token}/phone`, 'platform=android')).status).toBe(303)
      const [listed] = await server.app.store.list({ limit: 1, search: 'iphone@example.com' })
      expect(listed?.platform).toBe('android')
      expect(await (await fetch(`${server.url}/me/${ios?.token}?done=phone`)).text()).toContain(
        'Our mail will send you to the right store.',
      )
      smtp.received.length = 0
      const sent = await admin('/campaigns', {
        method: 'POST',
        body: { subject: 'Android is here', markdown: '[Get it]({{store_url}})', segment: { platforms: ['android'] }, send: true },
      })
      expect(((await sent.json()) as { recipients: number }).recipients).toBe(2)
      await smtp.waitForRecipients(2)
      const mail = smtp.received.find((m) => m.to === 'iphone@example.com')
      expect(mail && linksOf(mail)[0]).toBe(`${PLAY_STORE_URL}&referrer=code%3D${codeOf('ios')}`)
    },
  )
})
