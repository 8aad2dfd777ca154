import { describe, expect, it } from 'vitest'
import { checkLaunchTargets, DEFAULT_LAUNCH_TARGETS, readInviteCode } from '../../contract/growth'
import { mailboxKey } from '../../server/growth/mailbox'
import { warnAtMostOnce } from '../../server/growth/log-once'
import { isCountedView, viewSource } from '../../server/growth/views'
import { waitingLine } from '../../server/http/landing-page'
import { funnelRange } from '../../server/operators/growth-routes'
import { funnelOf } from '../../server/store/growth/funnel'
import { metersOf } from '../../server/store/growth/launch'
import { newInviteCode } from '../../server/secrets'
import { content } from '../../web/content'

const BROWSER =
  'Mozilla/5.0 (iPhone; CPU iPhone OS 18_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.0 Mobile/15E148 Safari/604.1'

describe('mailboxKey', () => {
  it('ignores letter case, +tags, and for Gmail and Googlemail the dots', () => {
    const ada = mailboxKey('ada.lovelace@gmail.com')
    for (const spelling of [
      'Ada.Lovelace@Gmail.com',
      'adalovelace@gmail.com',
      'a.d.a.l.o.v.e.l.a.c.e+dogs@googlemail.com',
      'ADA.LOVELACE+x+y@GOOGLEMAIL.COM',
    ])
      expect(mailboxKey(spelling)).toBe(ada)
  })

  it('keeps the dots elsewhere, and tells different people apart', () => {
    expect(mailboxKey('ada.lovelace@example.com')).not.toBe(mailboxKey('adalovelace@example.com'))
    expect(mailboxKey('ada+club@example.com')).toBe(mailboxKey('ADA@example.com'))
    expect(mailboxKey('ada@gmail.com')).not.toBe(mailboxKey('ada@example.com'))
    expect(mailboxKey('+ada@example.com')).toBe('+ada@example.com') // a leading + is the name itself
  })
})

describe('invite codes', () => {
  it('are 128 random bits, URL-safe, and read back only when well-formed', () => {
    const codes = new Set(Array.from({ length: 1000 }, newInviteCode))
    expect(codes.size).toBe(1000)
    for (const code of codes) expect(readInviteCode(code)).toBe(code)
    expect([...codes][0]).toMatch(/^[A-Za-z0-9_-]{22}$/)
    for (const odd of ['', 'a b', 'a'.repeat(65), 'é', 5, null, undefined, ['x']]) expect(readInviteCode(odd)).toBeNull()
    expect(readInviteCode('a'.repeat(64))).toBe('a'.repeat(64))
  })
})

describe('isCountedView', () => {
  const as = (headers: Record<string, string>, method = 'GET') => isCountedView(method, { 'user-agent': BROWSER, ...headers })

  it("counts a browser's GET of the document, with or without fetch metadata", () => {
    expect(as({})).toBe(true)
    expect(as({ 'sec-fetch-dest': 'document', 'sec-fetch-mode': 'navigate' })).toBe(true)
  })

  it('leaves out HEAD, other destinations, prefetches, previews, bots and a missing User-Agent', () => {
    expect(as({}, 'HEAD')).toBe(false)
    expect(as({ 'sec-fetch-dest': 'iframe' })).toBe(false)
    expect(as({ 'sec-purpose': 'prefetch;prerender' })).toBe(false)
    expect(as({ purpose: 'prefetch' })).toBe(false)
    expect(as({ 'x-moz': 'prefetch' })).toBe(false)
    expect(as({ 'x-purpose': 'preview' })).toBe(false)
    for (const bot of [
      'Googlebot/2.1 (+http://www.google.com/bot.html)',
      'Twitterbot/1.0',
      'TelegramBot (like TwitterBot)',
      'python-requests/2.32.3',
      '',
      ' ',
    ])
      expect(as({ 'user-agent': bot }), bot).toBe(false)
    expect(isCountedView('GET', {})).toBe(false)
  })
})

describe('viewSource', () => {
  it('names utm_source first, then the referring host, then direct', () => {
    expect(viewSource('/?utm_source=dogshow&x=1', { referer: 'https://club.example/a', host: 'kennect.app' })).toBe('dogshow')
    expect(viewSource('/', { referer: 'https://club.example/news?id=1', host: 'kennect.app' })).toBe('club.example')
    expect(viewSource('/?utm_source=%20', { referer: 'https://kennect.app/#about', host: 'kennect.app' })).toBe('direct')
    expect(viewSource('/', { referer: 'android-app://com.example', host: 'kennect.app' })).toBe('direct')
    expect(viewSource('/', {})).toBe('direct')
    expect(viewSource(`/?utm_source=${'x'.repeat(300)}`, {})).toHaveLength(200)
  })
})

describe('waitingLine', () => {
  const words = { lang: 'en', note: content.hero.note, waiting: content.hero.waiting }

  it('says the note until the total less its offset reaches 100, then its hundred, rounded down', () => {
    expect(waitingLine(words, null, 0)).toBe(content.hero.note)
    expect(waitingLine(words, 1000, null)).toBe(content.hero.note) // no offset read: no number
    expect(waitingLine(words, 99, 0)).toBe(content.hero.note)
    expect(waitingLine(words, 100, 0)).toBe('100 breeders and dog owners are waiting')
    expect(waitingLine(words, 106, 7)).toBe(content.hero.note)
    expect(waitingLine(words, 107, 7)).toBe('100 breeders and dog owners are waiting')
    expect(waitingLine(words, 1249, 0)).toBe('1,200 breeders and dog owners are waiting')
    expect(waitingLine(words, 1305, 6)).toBe('1,200 breeders and dog owners are waiting')
  })

  it("follows the page's language for numbers and plural forms", () => {
    const polish = {
      lang: 'pl',
      note: '<Wkrótce>',
      waiting: { few: '{{count}} czekają', many: '{{count}} czeka', other: '{{count}} czeka?' },
    }
    expect(waitingLine(polish, 5, 0)).toBe('&lt;Wkrótce&gt;')
    expect(waitingLine(polish, 1_234_567, 3)).toBe(`${new Intl.NumberFormat('pl').format(1_234_500)} czeka`)
    // Rounded to the hundred, a Polish count always takes its "many" form; without one, "other" is said.
    expect(waitingLine({ ...polish, waiting: { other: '{{count}} czeka?' } }, 1_224, 0)).toBe('1200 czeka?')
  })
})

describe('checkLaunchTargets', () => {
  it('takes a default and countries in any letter case', () => {
    expect(checkLaunchTargets({ default: { breeders: 0, owners: 1_000_000 }, countries: { de: { breeders: 80, owners: 400 } } })).toEqual({
      ok: true,
      targets: { default: { breeders: 0, owners: 1_000_000 }, countries: { DE: { breeders: 80, owners: 400 } } },
    })
    expect(checkLaunchTargets(DEFAULT_LAUNCH_TARGETS)).toEqual({ ok: true, targets: DEFAULT_LAUNCH_TARGETS })
  })

  it('names every field that is wrong', () => {
    const checked = checkLaunchTargets({
      default: { breeders: 2.5, owners: null },
      countries: { ZZ: {}, FR: { breeders: 1, owners: 1, x: 1 } },
      more: 1,
    })
    expect(checked.ok).toBe(false)
    if (checked.ok) return
    expect(checked.problems).toEqual([
      'more: unknown field',
      'default.breeders: expected a whole number from 0 to 1,000,000, got 2.5',
      'default.owners: expected a whole number from 0 to 1,000,000, got null',
      'countries.ZZ: unknown country code (expected ISO 3166-1 alpha-2, such as DE)',
      'countries.FR.x: unknown field',
    ])
    expect(
      checkLaunchTargets({
        default: { breeders: 1, owners: 1 },
        countries: { de: { breeders: 1, owners: 1 }, DE: { breeders: 1, owners: 1 } },
      }),
    ).toMatchObject({
      ok: false,
      problems: ['countries.DE: given twice'],
    })
  })
})

describe('metersOf', () => {
  it('sets each country against its own target or the default, the readiest first', () => {
    const targets = { default: { breeders: 10, owners: 10 }, countries: { FR: { breeders: 1, owners: 1 } } }
    const meters = metersOf(
      [
        { country: 'DE', confirmed: 9, breeders: 4, owners: 5 },
        { country: 'FR', confirmed: 2, breeders: 1, owners: 1 },
        { country: 'IT', confirmed: 16, breeders: 8, owners: 8 },
      ],
      targets,
    )
    expect(meters.map((m) => [m.country, m.ready])).toEqual([
      ['FR', true],
      ['IT', false],
      ['DE', false],
    ])
    expect(meters[1]?.target).toEqual({ breeders: 10, owners: 10 })
  })
})

describe('the funnel', () => {
  it('covers the last 30 days unless told, at most 400, and every day of it', () => {
    const range = funnelRange(undefined, '2026-03-01')
    expect(range).toEqual({ since: '2026-01-31', until: '2026-03-01' })
    expect(() => funnelRange('2025-01-01', '2026-03-01')).toThrow('since: at most 400 days')
    expect(() => funnelRange('2026-02-29', undefined)).toThrow('since: expected a day')
    const funnel = funnelOf(
      [{ day: '2026-03-01', views: '7', visitors: 3 }],
      [],
      [],
      [
        { source: 'club', partner: null, signups: 2, confirmed: 1 },
        // A partner named as a source is: its sign-ups are its own row.
        { source: 'club', partner: 4, signups: 3, confirmed: 3 },
      ],
      '2026-02-28',
      '2026-03-01',
    )
    expect(funnel.days).toEqual([
      { day: '2026-02-28', views: 0, visitors: 0, signups: 0, confirmed: 0, profiled: 0, inviters: 0 },
      { day: '2026-03-01', views: 7, visitors: 3, signups: 0, confirmed: 0, profiled: 0, inviters: 0 },
    ])
    expect(funnel.sources).toEqual([
      { source: 'club', partner: 4, views: 0, visitors: 0, signups: 3, confirmed: 3 },
      { source: 'club', partner: null, views: 0, visitors: 0, signups: 2, confirmed: 1 },
    ])
  })
})

describe('warnAtMostOnce', () => {
  it('lets one line through a minute, and says how many it held back', () => {
    const lines: object[] = []
    let now = 0
    const warn = warnAtMostOnce({ warn: (details) => lines.push(details) }, 60_000, () => now)
    for (let i = 0; i < 5; i++) warn({ i }, 'x')
    now = 60_000
    warn({ i: 5 }, 'x')
    expect(lines).toEqual([{ i: 0 }, { i: 5, heldBack: 4 }])
  })
})
