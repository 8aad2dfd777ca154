// A partner's embed over HTTP on both stores (docs/partners.md): the join the script, the iframe and
// the plain form post to is the landing page's join with one more adapter (same checks, silent
// duplicates, one confirmation mail in the form's language), refused from any other origin and
// for a key that is unknown, rotated or disabled; credit only on confirmation; the partner in
// signup.created; the session's words and meter.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { embedJoinPath, embedPath, embedSessionPath, type EmbedSession, type Partner } from '../../contract/partners'
import { formTokens } from '../../server/waitlist/form-token'
import { hashToken } from '../../server/secrets'
import { mailCopy } from '../../server/mail/content'
import { pageContent } from '../../web/content'
import { localMails, recipients } from '../support/mailbox'
import { confirmOnPage, joinWithLink, pageTokenFor } from '../support/page-links'
import { profileOf } from '../support/profile'
import { useSecretWhere } from '../support/public-figures'
import { row } from '../support/rows'
import { figureKey } from '../../server/growth/public-figures'
import { breedName } from '../../server/breeds/catalogue'
import { barPercent } from '../../contract/public-figures'
import { visitorContent } from '../../web/visitor/content'
import { startReceiver } from '../support/receiver'
import { startServer, type TestServer } from '../support/server'
import { STORES } from '../support/stores'
import { asToken } from '../support/team'

const ADMIN_TOKEN = 'admin-token-for-the-embed-tests-012345'
const FORM_SECRET = 'form-secret-for-the-embed-tests-0123456789'
const CLUB = 'https://club.example'
const OTHER = 'https://pugs.example'
const EVIL = 'https://evil.example'

/** A token the way the script's session gives one, issued long enough ago to pass the minimum fill time. */
const token = () => formTokens(FORM_SECRET, 0).issue(Date.now() - 10_000)

describe.each(STORES)('the partner embed on $kind', ({ kind, available }) => {
  let server: TestServer
  let club: Partner
  let pugs: Partner
  beforeAll(async () => {
    if (!available) return
    server = await startServer({ ADMIN_TOKEN, FORM_SECRET, MAIL_RATE_PER_SECOND: '0', WEBHOOK_ALLOW_PRIVATE: '1' }, kind)
    club = await make({ name: 'Labrador Club', origins: [CLUB], thanksUrl: `${CLUB}/thanks`, breed: 'labrador-retriever', country: 'DE' })
    pugs = await make({ name: 'Pug Kennel', origins: [OTHER] })
  })
  afterAll(() => server?.close())

  const admin = asToken(() => server, ADMIN_TOKEN)
  async function make(body: Record<string, unknown>): Promise<Partner> {
    const answer = await admin('/partners', { method: 'POST', body })
    if (answer.status !== 201) throw new Error(`making a partner answered ${answer.status}: ${await answer.text()}`)
    return (await answer.json()) as Partner
  }
  const partner = async (id: number) => (await (await admin(`/partners/${id}`)).json()) as Partner
  /** The script's join: JSON from the partner's page. */
  const scriptJoin = (key: string, body: unknown, origin: string | null = CLUB, headers: Record<string, string> = {}) =>
    fetch(`${server.url}${embedJoinPath(key)}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...(origin === null ? {} : { origin }), ...headers },
      body: typeof body === 'string' ? body : JSON.stringify(body),
    })
  /** A form's join: the iframe's (from our origin) or the partner's plain form (from its site). */
  const formJoin = (key: string, fields: Record<string, string>, origin: string, query = '') =>
    fetch(`${server.url}${embedJoinPath(key)}${query}`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', origin },
      body: new URLSearchParams(fields).toString(),
      redirect: 'manual',
    })
  const signUp = async (email: string) => (await server.app.store.list({ limit: 1, search: email }))[0]
  const mailsTo = async (email: string) => (await localMails(server.config.MAIL_DIR)).filter((mail) => recipients(mail).includes(email))

  it.skipIf(!available)(
    'answers a new and a known address exactly alike, mails once in the form’s language, and records the partner',
    async () => {
      const first = await scriptJoin(club.key, { email: 'anke@example.com', locale: 'de', token: token() })
      const again = await scriptJoin(club.key, { email: 'ANKE@example.com', locale: 'fr', token: token() })
      for (const answer of [first, again]) {
        expect(answer.status).toBe(201)
        expect(answer.headers.get('access-control-allow-origin')).toBe(CLUB)
        expect(answer.headers.get('access-control-allow-credentials')).toBeNull()
        expect(answer.headers.get('vary')).toMatch(/Origin/)
        expect(answer.headers.get('set-cookie')).toBeNull()
      }
      const headersOf = (answer: Response) =>
        [...answer.headers].filter(([name]) => !['date', 'x-request-id', 'x-ratelimit-remaining', 'content-length'].includes(name))
      expect(headersOf(again)).toEqual(headersOf(first))
      expect(await again.text()).toBe(await first.text())
      await pageTokenFor(server.config.MAIL_DIR, 'anke@example.com')
      // One confirmation mail within the cooldown, in the language the form was in.
      const mails = await mailsTo('anke@example.com')
      expect(mails).toHaveLength(1)
      expect(mails[0]?.subject).toBe(mailCopy('Kennect', 'de').confirmation.subject)
      expect(await signUp('anke@example.com')).toMatchObject({ email: 'anke@example.com', locale: 'de', referrer: 'club.example' })
      expect(await partner(club.id)).toMatchObject({ signups: 1, confirmed: 0 })
    },
  )

  it.skipIf(!available)(
    'refuses a join from another origin, from Origin null and from nowhere: 403, no CORS header, nothing stored',
    async () => {
      const before = await server.app.store.count()
      for (const [origin, headers] of [
        [EVIL, {}],
        [OTHER, {}], // another partner's site
        ['null', {}],
        [null, {}],
        [null, { referer: `${EVIL}/page` }],
      ] as const) {
        const answer = await scriptJoin(club.key, { email: 'mallory@example.com', token: token() }, origin, headers)
        expect(answer.status, String(origin)).toBe(403)
        expect(answer.headers.get('access-control-allow-origin')).toBeNull()
        expect(((await answer.json()) as { code: string }).code).toBe('origin_refused')
      }
      const plain = await formJoin(club.key, { email: 'mallory@example.com' }, EVIL)
      expect(plain.status).toBe(403)
      expect(await server.app.store.count()).toBe(before)
      expect(await signUp('mallory@example.com')).toBeUndefined()
      // Without Origin, the Referer's origin decides: the partner's page passes.
      const referred = await scriptJoin(club.key, { email: 'rike@example.com', token: token() }, null, { referer: `${CLUB}/join-us` })
      expect(referred.status).toBe(201)
      expect(await signUp('rike@example.com')).toMatchObject({ referrer: 'club.example' })
    },
  )

  it.skipIf(!available)('tells a preflight yes only for the partner’s origins', async () => {
    const preflight = (origin: string) =>
      fetch(`${server.url}${embedJoinPath(club.key)}`, {
        method: 'OPTIONS',
        headers: { origin, 'access-control-request-method': 'POST', 'access-control-request-headers': 'content-type' },
      })
    const yes = await preflight(CLUB)
    expect(yes.status).toBe(204)
    expect(yes.headers.get('access-control-allow-origin')).toBe(CLUB)
    expect(yes.headers.get('access-control-allow-methods')).toBe('POST')
    expect(yes.headers.get('access-control-allow-headers')?.toLowerCase()).toBe('content-type')
    expect(yes.headers.get('access-control-allow-credentials')).toBeNull()
    expect(yes.headers.get('vary')).toMatch(/Origin/)
    for (const origin of [EVIL, OTHER]) {
      const no = await preflight(origin)
      expect(no.headers.get('access-control-allow-origin'), origin).toBeNull()
      expect(no.headers.get('access-control-allow-methods'), origin).toBeNull()
    }
  })

  it.skipIf(!available)('refuses bad input with a 400 naming the field, and stores nothing', async () => {
    const before = await server.app.store.count()
    const cases: [unknown, number, RegExp][] = [
      [{ token: token() }, 400, /^email: required$/],
      [{ email: 'not-an-address', token: token() }, 400, /^email: not an address/],
      [{ email: 42, token: token() }, 400, /^body\/email: expected text$/],
      [{ email: 'x@example.com', token: token(), role: 'breeder' }, 400, /^body\/role: unknown field$/],
      [{ email: 'x@example.com' }, 400, /^token: missing, expired or not this site/],
      [{ email: 'x@example.com', token: formTokens('another-secret-0123456789abcdef', 0).issue() }, 400, /^token:/],
      [['x@example.com'], 400, /^The body is one object/],
      ['{"email":', 400, /^The body is empty or not valid JSON$/],
    ]
    for (const [body, status, message] of cases) {
      const answer = await scriptJoin(club.key, body)
      expect(answer.status, JSON.stringify(body)).toBe(status)
      expect(((await answer.json()) as { message: string }).message, JSON.stringify(body)).toMatch(message)
    }
    const other = await fetch(`${server.url}${embedJoinPath(club.key)}`, {
      method: 'POST',
      headers: { 'content-type': 'text/plain', origin: CLUB },
      body: 'x@example.com',
    })
    expect(other.status).toBe(415)
    expect((await scriptJoin(club.key, { email: `${'a'.repeat(3000)}@example.com`, token: token() })).status).toBe(413)
    expect(await server.app.store.count()).toBe(before)
  })

  it.skipIf(!available)('tells a bot what it tells a person, and stores nothing: the honeypot, a form sent too soon', async () => {
    const before = await server.app.store.count()
    const person = await scriptJoin(club.key, { email: 'bot1@example.com', token: token(), website: 'https://spam.example' })
    const tooSoon = await scriptJoin(club.key, { email: 'bot2@example.com', token: formTokens(FORM_SECRET, 0).issue() })
    for (const answer of [person, tooSoon]) {
      expect(answer.status).toBe(201)
      expect(await answer.json()).toEqual({ ok: true })
    }
    const plain = await formJoin(club.key, { email: 'bot3@example.com', website: 'x' }, CLUB)
    expect(plain.status).toBe(303)
    expect(plain.headers.get('location')).toBe(`${CLUB}/thanks`)
    expect(await server.app.store.count()).toBe(before)
  })

  it.skipIf(!available)(
    'answers the plain form 303 to the thanks URL, or to our thank-you page in its language; the iframe to itself',
    async () => {
      // The partner's own form: no token (a static page has none), the honeypot only.
      const plain = await formJoin(club.key, { email: 'ines@example.com', locale: 'es' }, CLUB)
      expect(plain.status).toBe(303)
      expect(plain.headers.get('location')).toBe(`${CLUB}/thanks`)
      expect(await signUp('ines@example.com')).toMatchObject({ locale: 'es', referrer: 'club.example' })
      const pugsPlain = await formJoin(pugs.key, { email: 'pia@example.com', locale: 'pl' }, OTHER)
      const thanks = pugsPlain.headers.get('location') ?? ''
      expect(thanks).toBe(`http://localhost:${new URL(server.url).port}${embedPath(pugs.key)}?lang=pl&sent=joined`)
      const page = await (await fetch(`${server.url}${new URL(thanks).pathname}${new URL(thanks).search}`)).text()
      expect(page).toContain('<html lang="pl">')
      expect(page).toContain(pageContent('pl').waitlist.outcomes.joined.description)
      const invalid = await formJoin(pugs.key, { email: 'nope', locale: 'pl' }, OTHER)
      expect(invalid.headers.get('location')).toMatch(/\?lang=pl&sent=invalid$/)

      // The iframe's form posts from our own page: it needs its token, and comes back to itself.
      const own = server.url
      const framed = await formJoin(club.key, { email: 'iris@example.com', locale: 'it', token: token() }, own, '?theme=dark')
      expect(framed.status).toBe(303)
      expect(framed.headers.get('location')).toBe(`${embedPath(club.key)}?lang=it&sent=joined&theme=dark`)
      expect(await signUp('iris@example.com')).toMatchObject({ locale: 'it', referrer: 'club.example' })
      const expired = await formJoin(club.key, { email: 'ivo@example.com', locale: 'it' }, own)
      expect(expired.headers.get('location')).toBe(`${embedPath(club.key)}?lang=it&sent=expired`)
      expect(await signUp('ivo@example.com')).toBeUndefined()
    },
  )

  it.skipIf(!available)('serves the iframe only into the partner’s own origins, and a 404 for a key rotated or disabled', async () => {
    const partner = await make({ name: 'Setter Club', origins: ['https://setters.example', 'http://localhost:5173'] })
    const page = await fetch(`${server.url}${embedPath(partner.key)}?lang=de`)
    expect(page.status).toBe(200)
    const csp = page.headers.get('content-security-policy') ?? ''
    expect(csp).toContain('frame-ancestors https://setters.example http://localhost:5173')
    expect(csp).toMatch(/default-src 'none'; style-src 'sha256-[A-Za-z0-9+/]+=*'/)
    expect(csp).not.toContain('unsafe-inline')
    expect(page.headers.get('x-frame-options')).toBeNull()
    expect(page.headers.get('set-cookie')).toBeNull()
    const html = await page.text()
    expect(html).toContain(`action="${embedJoinPath(partner.key)}"`)
    expect(html).toMatch(/name="token" value="[0-9a-z]+\.[\w-]+"/)
    const session = await fetch(`${server.url}${embedSessionPath(partner.key)}?lang=de`, { headers: { origin: 'https://setters.example' } })
    expect(session.status).toBe(200)

    const rotated = (await (await admin(`/partners/${partner.id}/key`, { method: 'POST' })).json()) as Partner
    expect((await fetch(`${server.url}${embedPath(partner.key)}`)).status).toBe(404)
    expect((await fetch(`${server.url}${embedSessionPath(partner.key)}`)).status).toBe(404)
    expect((await scriptJoin(partner.key, { email: 'old@example.com', token: token() }, 'https://setters.example')).status).toBe(404)
    expect((await fetch(`${server.url}${embedPath(rotated.key)}`)).status).toBe(200)
    await admin(`/partners/${partner.id}`, { method: 'PATCH', body: { disabled: true } })
    expect((await fetch(`${server.url}${embedPath(rotated.key)}`)).status).toBe(404)
    expect((await fetch(`${server.url}${embedSessionPath(rotated.key)}`)).status).toBe(404)
    expect((await scriptJoin(rotated.key, { email: 'off@example.com', token: token() }, 'https://setters.example')).status).toBe(404)
    expect((await formJoin(rotated.key, { email: 'off@example.com' }, 'https://setters.example')).status).toBe(404)
    expect(await signUp('off@example.com')).toBeUndefined()
  })

  it.skipIf(!available)('credits a partner only on confirmation, and nobody for a person who joined another way first', async () => {
    const before = await partner(club.id)
    expect((await scriptJoin(club.key, { email: 'conny@example.com', token: token() })).status).toBe(201)
    expect(await partner(club.id)).toMatchObject({ signups: before.signups + 1, confirmed: before.confirmed })
    const page = await pageTokenFor(server.config.MAIL_DIR, 'conny@example.com')
    await confirmOnPage(server, page)
    expect(await partner(club.id)).toMatchObject({ signups: before.signups + 1, confirmed: before.confirmed + 1 })
    // Joining again through another partner, or after the landing page, credits nobody.
    const pugsBefore = await partner(pugs.id)
    expect((await scriptJoin(pugs.key, { email: 'conny@example.com', token: token() }, OTHER)).status).toBe(201)
    await fetch(`${server.url}/rest/v1/waitlist`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: 'lena@example.com' }),
    })
    expect((await scriptJoin(pugs.key, { email: 'lena@example.com', token: token() }, OTHER)).status).toBe(201)
    expect(await partner(pugs.id)).toEqual(pugsBefore)
    expect(await signUp('lena@example.com')).toMatchObject({ referrer: null })
    const visitor = await server.app.store.visitors.byToken(hashToken(page))
    expect(visitor?.confirmed_at).not.toBeNull()
    // Their own data download says which partner they came through.
    const data = (await (await fetch(`${server.url}/me/${page}/data.json`)).json()) as { signup: { partner: number | null } }
    expect(data.signup.partner).toBe(club.id)
  })

  it.skipIf(!available)('sends signup.created with the partner’s id, and null for a sign-up of the landing page', async () => {
    const receiver = await startReceiver()
    try {
      const made = await admin('/webhooks', { method: 'POST', body: { url: receiver.url, events: ['signup.created'] } })
      receiver.secrets.push(((await made.json()) as { secret: string }).secret)
      expect((await scriptJoin(club.key, { email: 'hook@example.com', token: token() })).status).toBe(201)
      await fetch(`${server.url}/rest/v1/waitlist`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ email: 'page@example.com' }),
      })
      await receiver.until((got) => got.length >= 2)
      const hook = await signUp('hook@example.com')
      const plain = await signUp('page@example.com')
      expect(receiver.received.map((r) => [r.type, r.data.id, r.data.partner, r.data.source])).toEqual([
        ['signup.created', hook?.id, club.id, 'club.example'],
        ['signup.created', plain?.id, null, null],
      ])
    } finally {
      await receiver.close()
    }
  })

  it.skipIf(!available)('counts a segment of one partner right, and names each partner among the funnel’s sources', async () => {
    const setters = await make({ name: 'Setter Friends', origins: ['https://setters.example'] })
    const spaniels = await make({ name: 'Spaniel Circle', origins: ['https://spaniels.example'] })
    const joinVia = async (p: Partner, email: string, origin: string) =>
      expect((await scriptJoin(p.key, { email, token: token() }, origin)).status).toBe(201)
    await joinVia(setters, 'set1@example.com', 'https://setters.example')
    await joinVia(setters, 'set2@example.com', 'https://setters.example')
    await joinVia(spaniels, 'spa1@example.com', 'https://spaniels.example')
    await confirmOnPage(server, await pageTokenFor(server.config.MAIL_DIR, 'set1@example.com'))
    // Joining again through the other partner moves no one.
    await joinVia(spaniels, 'set2@example.com', 'https://spaniels.example')
    const recipients = async (segment: Record<string, unknown>) => {
      const answer = await admin('/campaigns', { method: 'POST', body: { subject: 'Hi', markdown: 'Hello.', segment, send: false } })
      expect(answer.status, await answer.clone().text()).toBe(201)
      return ((await answer.json()) as { recipients: number }).recipients
    }
    expect(await recipients({ partners: [String(setters.id)], includeUnconfirmed: true })).toBe(2)
    expect(await recipients({ partners: [String(setters.id)] })).toBe(1)
    expect(await recipients({ partners: [String(spaniels.id)], includeUnconfirmed: true })).toBe(1)
    expect(await recipients({ partners: [String(setters.id), String(spaniels.id)], includeUnconfirmed: true })).toBe(3)
    expect(await recipients({ partners: ['not-a-partner'], includeUnconfirmed: true })).toBe(0)
    const refused = await admin('/campaigns', {
      method: 'POST',
      body: { subject: 'Hi', markdown: 'Hello.', segment: { partners: [' 1'] }, send: false },
    })
    expect(refused.status).toBe(400)
    expect(((await refused.json()) as { message: string }).message).toMatch(/segment\/partners\/0/)

    const funnel = (await (await admin('/funnel')).json()) as {
      sources: { source: string; partner: number | null; signups: number; confirmed: number }[]
    }
    const ofPartner = (id: number) => funnel.sources.find((source) => source.partner === id)
    expect(ofPartner(setters.id)).toMatchObject({ source: 'Setter Friends', signups: 2, confirmed: 1 })
    expect(ofPartner(spaniels.id)).toMatchObject({ source: 'Spaniel Circle', signups: 1, confirmed: 0 })
    // Not also under the sites they came from.
    expect(funnel.sources.filter((source) => source.source === 'setters.example')).toEqual([])
  })

  it.skipIf(!available)('gives the script its token and its words in the asked language, only to the partner’s origins', async () => {
    const answer = await fetch(`${server.url}${embedSessionPath(pugs.key)}?lang=pl`, {
      headers: { origin: OTHER, 'accept-encoding': 'br' },
    })
    expect(answer.status).toBe(200)
    expect(answer.headers.get('access-control-allow-origin')).toBe(OTHER)
    expect(answer.headers.get('cache-control')).toBe('no-store')
    const session = (await answer.json()) as EmbedSession
    expect(session.locale).toBe('pl')
    expect(formTokens(FORM_SECRET, 0).check(session.token)).toBe('ok')
    // How long the script holds its button after a fresh token (FORM_MIN_SECONDS, 2 by default): a
    // press sooner would be stored as nothing and read as joined.
    expect(session.readyInMs).toBe(2_000)
    expect(session.words).toMatchObject({ submit: pageContent('pl').waitlist.submit, joined: pageContent('pl').waitlist.outcomes.joined })
    expect(session.meter).toBeNull()
    const refused = await fetch(`${server.url}${embedSessionPath(pugs.key)}`, { headers: { origin: CLUB } })
    expect(refused.status).toBe(403)
    expect(refused.headers.get('access-control-allow-origin')).toBeNull()
  })
})

describe.each(STORES)('the partner embed’s meter on $kind', ({ kind, available }) => {
  let server: TestServer
  afterAll(() => server?.close())

  it.skipIf(!available)(
    'shows what the visitor’s page shows for that breed and country, in the embed’s language, never an exact count',
    async () => {
      server = await startServer({ ADMIN_TOKEN, FORM_SECRET, MAIL_RATE_PER_SECOND: '0' }, kind)
      // Before any public figure is read: studs shown (offset 0), dams not (offset past what they are).
      const lab = (side: 'studs' | 'dams') => figureKey.breed('labrador-retriever', 'DE', side)
      await useSecretWhere(server, { [lab('studs')]: (o) => o === 0, [lab('dams')]: (o) => o >= 2 && o < 40 })
      const seed = async (prefix: string, n: number, side: 'stud' | 'dam') => {
        for (let i = 0; i < n; i++) {
          await server.app.store.add(row(`${prefix}-${i}@example.com`))
          const id = (await server.app.store.list({ limit: 1, search: `${prefix}-${i}@` }))[0]?.id ?? 0
          await server.app.store.visitors.confirm(id)
          await server.app.store.visitors.saveProfile(
            id,
            profileOf({ role: 'breeder', breeds: [{ name: 'Labrador', side }], country: 'DE' }),
          )
        }
      }
      await seed('stud', 13, 'stud')
      await seed('dam', 11, 'dam')
      const answer = await fetch(`${server.url}/admin/api/partners`, {
        method: 'POST',
        headers: { authorization: `Bearer ${ADMIN_TOKEN}`, 'content-type': 'application/json' },
        body: JSON.stringify({ name: 'Labrador Club', origins: [CLUB], breed: 'Labrador Retriever', country: 'DE' }),
      })
      const club = (await answer.json()) as Partner
      const session = async (lang: string) =>
        (await (
          await fetch(`${server.url}${embedSessionPath(club.key)}?lang=${lang}`, { headers: { origin: CLUB } })
        ).json()) as EmbedSession

      // A visitor with the same breed in the same country sees, on their page, the same sentence.
      const { token } = await joinWithLink(server, 'vera@example.com')
      await confirmOnPage(server, token)
      const saved = await fetch(`${server.url}/me/${token}/profile`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: 'role=owner&breed-1=Labrador&side-1=seeker&country=DE',
        redirect: 'manual',
      })
      expect(saved.status).toBe(303)
      const target = (await server.app.store.breeds.targets()).default
      for (const lang of ['en', 'de', 'pl'] as const) {
        if (lang !== 'en')
          await fetch(`${server.url}/me/${token}/language`, {
            method: 'POST',
            headers: { 'content-type': 'application/x-www-form-urlencoded' },
            body: `locale=${lang}`,
          })
        const page = (await (await fetch(`${server.url}/me/${token}`)).text()).replaceAll('&#x27;', "'").replaceAll('&amp;', '&')
        const { meter } = await session(lang)
        expect(meter, lang).not.toBeNull()
        const copy = visitorContent(lang).launch
        const expected = copy.breedMeter({
          breed: 'labrador-retriever',
          name: breedName('labrador-retriever', lang),
          studs: 10,
          dams: null,
          target,
          ready: false,
        })
        expect(meter?.sentence, lang).toBe(expected)
        expect(page, lang).toContain(expected)
        expect(meter?.target, lang).toBe(copy.breedTarget(target))
        // The bars are drawn from the figures shown: 10 studs of the target, no dam; 13 and 11 nowhere.
        expect(meter?.bars.map((bar) => bar.percent)).toEqual([barPercent(10, target.studs), 0])
        expect(JSON.stringify(meter)).not.toMatch(/\b1[13]\b/)
      }
      // The iframe's page says it too.
      const framed = await (await fetch(`${server.url}${embedPath(club.key)}?lang=de`)).text()
      expect(framed).toContain((await session('de')).meter?.sentence)
    },
  )
})

describe.each(STORES)('the partner embed when the store stops answering, on $kind', ({ kind, available }) => {
  let server: TestServer
  afterAll(() => server?.close())

  it.skipIf(!available)('answers 503 to try again: JSON to the script, the page that says so to a form and the iframe', async () => {
    server = await startServer({ ADMIN_TOKEN, FORM_SECRET }, kind)
    const made = await fetch(`${server.url}/admin/api/partners`, {
      method: 'POST',
      headers: { authorization: `Bearer ${ADMIN_TOKEN}`, 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'Labrador Club', origins: [CLUB] }),
    })
    const { key } = (await made.json()) as Partner
    await server.app.store.close()
    const script = await fetch(`${server.url}${embedJoinPath(key)}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', origin: CLUB },
      body: JSON.stringify({ email: 'later@example.com', token: token() }),
    })
    expect(script.status).toBe(503)
    expect(script.headers.get('retry-after')).toBe('5')
    expect(await script.json()).toMatchObject({ code: 'PGRST002', hint: 'Please try again.' })
    const words = visitorContent('de').gone.unavailable
    for (const answer of [
      await fetch(`${server.url}${embedJoinPath(key)}`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded', origin: CLUB },
        body: 'email=later%40example.com&locale=de',
        redirect: 'manual',
      }),
      await fetch(`${server.url}${embedPath(key)}?lang=de`),
    ]) {
      expect(answer.status).toBe(503)
      expect(answer.headers.get('retry-after')).toBe('5')
      expect(answer.headers.get('content-type')).toMatch(/^text\/html/)
      expect(await answer.text()).toContain(words.heading)
    }
  })
})

describe.each(STORES)('the partner embed’s limits on $kind', ({ kind, available }) => {
  let server: TestServer
  afterAll(() => server?.close())

  it.skipIf(!available)(
    'shares the per-address limits with the landing page’s join: past them 429 to the script, busy to a form',
    async () => {
      server = await startServer({ ADMIN_TOKEN, FORM_SECRET, RATE_LIMIT_PER_MINUTE: '2', RATE_LIMIT_PER_HOUR: '0' }, kind)
      const made = await fetch(`${server.url}/admin/api/partners`, {
        method: 'POST',
        headers: { authorization: `Bearer ${ADMIN_TOKEN}`, 'content-type': 'application/json' },
        body: JSON.stringify({ name: 'Labrador Club', origins: [CLUB], thanksUrl: `${CLUB}/thanks` }),
      })
      const { key } = (await made.json()) as Partner
      const landing = await fetch(`${server.url}/rest/v1/waitlist`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ email: 'one@example.com' }),
      })
      expect(landing.status).toBe(201)
      const script = (email: string) =>
        fetch(`${server.url}${embedJoinPath(key)}`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', origin: CLUB },
          body: JSON.stringify({ email, token: token() }),
        })
      expect((await script('two@example.com')).status).toBe(201)
      const refused = await script('three@example.com')
      expect(refused.status).toBe(429)
      expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0)
      expect(refused.headers.get('access-control-allow-origin')).toBe(CLUB)
      const form = await fetch(`${server.url}${embedJoinPath(key)}`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded', origin: CLUB },
        body: 'email=four%40example.com&locale=fr',
        redirect: 'manual',
      })
      expect(form.headers.get('location')).toMatch(new RegExp(`${embedPath(key)}\\?lang=fr&sent=busy$`))
      expect((await server.app.store.list({ limit: 10 })).map((r) => r.email)).toEqual(['one@example.com', 'two@example.com'])
    },
  )
})
