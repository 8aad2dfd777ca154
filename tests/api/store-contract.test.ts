import { afterEach, describe, expect, it } from 'vitest'
import { loadConfig } from '../../server/config'
import { createStore, StoreUnavailableError, type WaitlistStore } from '../../server/store/index'
import { hashToken } from '../../server/secrets'
import { freshDatabase } from '../support/server'
import { STORES } from '../support/stores'
import { row } from '../support/rows'
import type { Locale } from '../../contract/locales'
import { profileOf } from '../support/profile'
import type { AuditEntry, ImportBatch, ImportRecord, ImportStart } from '../../server/store/types'
import { readBreedName } from '../../server/breeds/catalogue'

const quiet = { warn: () => undefined }

describe.each(STORES)('store contract: $kind', ({ kind, available }) => {
  const cleanups: (() => Promise<void>)[] = []
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup()
  })

  async function open(env?: Record<string, string>): Promise<{ store: WaitlistStore; env: Record<string, string> }> {
    const db = env ? undefined : await freshDatabase(kind)
    if (db) cleanups.push(db.cleanup)
    const settings = (env ?? db?.env ?? {}) as Record<string, string>
    const store = await createStore(loadConfig(settings), quiet)
    cleanups.push(() => store.close())
    return { store, env: settings }
  }

  it.skipIf(!available)('stores an address as sent, with a UTC timestamp and its attribution', async () => {
    const { store } = await open()
    const before = Date.now()
    expect(await store.add(row('Ada@Example.com', { utm_source: 'dogshow', referrer: 'breedclub.example' }))).toEqual({
      inserted: true,
      mailQueued: true,
    })
    const [stored] = await store.list({ limit: 10 })
    expect(stored).toMatchObject({ email: 'Ada@Example.com', utm_source: 'dogshow', utm_medium: null, referrer: 'breedclub.example' })
    expect(stored?.created_at).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/)
    const at = Date.parse(stored?.created_at ?? '')
    expect(at).toBeGreaterThanOrEqual(before - 2_000)
    expect(at).toBeLessThanOrEqual(Date.now() + 2_000)
    expect(typeof stored?.id).toBe('number')
  })

  it.skipIf(!available)('stores nothing for a duplicate in any letter case', async () => {
    const { store } = await open()
    await store.add(row('grace@example.com'))
    expect(await store.add(row('GRACE@EXAMPLE.COM'))).toEqual({ inserted: false, mailQueued: false })
    expect(await store.count()).toBe(1)
  })

  it.skipIf(!available)('keeps exactly one row when the same address arrives concurrently', async () => {
    const { store } = await open()
    const results = await Promise.all(['Same@x.io', 'same@x.io', 'SAME@X.IO', 'same@X.io'].map((e) => store.add(row(e))))
    expect(results.filter((r) => r.inserted)).toHaveLength(1)
    expect(await store.count()).toBe(1)
  })

  it.skipIf(!available)('answers each sign-up of one batch its own outcome; a row the table refuses fails alone', async () => {
    const { store } = await open()
    // Each Promise.all is submitted in one turn of the event loop: one batch, one transaction.
    const first = await Promise.all(['one@x.io', 'two@x.io', 'One@X.io', 'three@x.io', 'two@x.io'].map((email) => store.add(row(email))))
    const known = { inserted: false, mailQueued: false }
    expect(first).toEqual([
      { inserted: true, mailQueued: true },
      { inserted: true, mailQueued: true },
      known,
      { inserted: true, mailQueued: true },
      known,
    ])
    const second = await Promise.allSettled([
      store.add(row('bad@x.io', { locale: 'xx' as Locale })),
      store.add(row('four@x.io')),
      store.add(row('ONE@x.io')),
    ])
    expect(second.map((o) => (o.status === 'fulfilled' ? o.value : 'refused'))).toEqual([
      'refused',
      { inserted: true, mailQueued: true },
      known,
    ])
    expect((await store.list({ limit: 10 })).map((r) => r.email)).toEqual(['one@x.io', 'two@x.io', 'three@x.io', 'four@x.io'])
    expect((await store.outbox.counts()).queued).toBe(4)
  })

  it.skipIf(!available)('lists in pages by id, in numeric order past id 9', async () => {
    const { store } = await open()
    const expected = Array.from({ length: 23 }, (_, i) => `dog${i}@example.com`)
    for (const email of expected) await store.add(row(email))
    const listed: string[] = []
    const pageSizes: number[] = []
    for (let afterId = 0; ;) {
      const page = await store.list({ limit: 5, afterId })
      if (page.length === 0) break
      pageSizes.push(page.length)
      listed.push(...page.map((r) => r.email))
      afterId = page.at(-1)?.id ?? afterId
    }
    expect(listed).toEqual(expected)
    expect(pageSizes).toEqual([5, 5, 5, 5, 3])
  })

  it.skipIf(!available)('finds addresses by any part, in any letter case', async () => {
    const { store } = await open()
    for (const email of ['Bella.Owner@kennel.example', 'duke@breeders.example', 'luna@KENNEL.example']) await store.add(row(email))
    const found = await store.list({ limit: 10, search: 'kennel' })
    expect(found.map((r) => r.email)).toEqual(['Bella.Owner@kennel.example', 'luna@KENNEL.example'])
    expect(await store.list({ limit: 10, search: '%' })).toEqual([])
    expect((await store.list({ limit: 10, search: '' })).length).toBe(3)
  })

  it.skipIf(!available)('counts and lists from a moment on', async () => {
    const { store } = await open()
    await store.add(row('early@example.com'))
    const [first] = await store.list({ limit: 1 })
    const later = new Date(Date.parse(first?.created_at ?? '') + 1).toISOString()
    expect(await store.count({ since: first?.created_at })).toBe(1)
    expect(await store.count({ since: later })).toBe(0)
    expect(await store.list({ limit: 10, since: later })).toEqual([])
    expect(await store.count()).toBe(1)
  })

  it.skipIf(!available)('sums sign-ups per UTC day and per source', async () => {
    const { store } = await open()
    await store.add(row('a@example.com', { utm_source: 'newsletter' }))
    await store.add(row('b@example.com', { utm_source: 'newsletter', referrer: 'club.example' }))
    await store.add(row('c@example.com', { referrer: 'club.example' }))
    await store.add(row('d@example.com'))
    const stats = await store.stats()
    const today = new Date().toISOString().slice(0, 10)
    expect(stats.total).toBe(4)
    expect(stats.perDay).toEqual([{ day: today, count: 4 }])
    expect(stats.perSource).toEqual([
      { source: 'newsletter', count: 2 },
      { source: 'club.example', count: 1 },
      { source: null, count: 1 },
    ])
  })

  it.skipIf(!available)('removes an address for good, in any letter case', async () => {
    const { store } = await open()
    await store.add(row('leave@example.com'))
    await store.add(row('stay@example.com'))
    expect(await store.remove('LEAVE@example.com')).toBe(true)
    expect(await store.remove('leave@example.com')).toBe(false)
    expect((await store.list({ limit: 10 })).map((r) => r.email)).toEqual(['stay@example.com'])
    expect(await store.add(row('leave@example.com'))).toEqual({ inserted: true, mailQueued: true })
  })

  it.skipIf(!available)('migrates once: a second start on the same database keeps the rows', async () => {
    const { store, env } = await open()
    await store.add(row('kept@example.com'))
    await store.close()
    const { store: again } = await open(env)
    expect(await again.count()).toBe(1)
  })

  it.skipIf(!available)('counts hits per key in a window, concurrent hits one by one, and peeks without counting', async () => {
    const { store } = await open()
    const minute = 60_000
    const concurrent = await Promise.all(Array.from({ length: 5 }, () => store.counters.hit([{ key: 'ip:a', windowMs: minute }])))
    expect(concurrent.map(([count]) => count?.hits)).toEqual([1, 2, 3, 4, 5])
    const [a, b] = await store.counters.hit([
      { key: 'ip:a', windowMs: minute },
      { key: 'ip:b', windowMs: 2 * minute },
    ])
    expect([a?.hits, b?.hits]).toEqual([6, 1])
    expect(a?.resetMs).toBeGreaterThan(minute - 5_000)
    expect(a?.resetMs).toBeLessThanOrEqual(minute)
    expect(b?.resetMs).toBeGreaterThan(minute)
    expect((await store.counters.peek('ip:a')).hits).toBe(6)
    expect((await store.counters.peek('ip:a')).hits).toBe(6)
    expect(await store.counters.peek('ip:none')).toEqual({ hits: 0, resetMs: 0 })
    const [short] = await store.counters.hit([{ key: 'ip:c', windowMs: 1 }])
    expect(short?.hits).toBe(1)
    await new Promise((resolve) => setTimeout(resolve, 20))
    expect(await store.counters.peek('ip:c')).toEqual({ hits: 0, resetMs: 0 }) // the window closed
    expect((await store.counters.hit([{ key: 'ip:c', windowMs: minute }]))[0]?.hits).toBe(1)
  })

  it.skipIf(!available)('takes a hit back from an open window, never below 0, and leaves a closed window as it is', async () => {
    const { store } = await open()
    const minute = 60_000
    await Promise.all(Array.from({ length: 3 }, () => store.counters.hit([{ key: 'code:a', windowMs: minute }])))
    await store.counters.hit([{ key: 'code:b', windowMs: minute }])
    // Concurrent give-backs each take one.
    await Promise.all([store.counters.giveBack(['code:a', 'code:b']), store.counters.giveBack(['code:b', 'code:a'])])
    expect((await store.counters.peek('code:a')).hits).toBe(1)
    expect((await store.counters.peek('code:b')).hits).toBe(0)
    expect((await store.counters.peek('code:b')).resetMs).toBeGreaterThan(0) // still open, at 0
    await store.counters.giveBack(['code:none'])
    expect(await store.counters.peek('code:none')).toEqual({ hits: 0, resetMs: 0 })
    // The next hit counts on from what is left.
    expect((await store.counters.hit([{ key: 'code:a', windowMs: minute }]))[0]?.hits).toBe(2)
    const [short] = await store.counters.hit([{ key: 'code:c', windowMs: 1 }])
    expect(short?.hits).toBe(1)
    await new Promise((resolve) => setTimeout(resolve, 20))
    await store.counters.giveBack(['code:c'])
    expect((await store.counters.hit([{ key: 'code:c', windowMs: minute }]))[0]?.hits).toBe(1) // a new window, from 1
  })

  it.skipIf(!available)('queues a confirmation mail with a new address, and again only after a day for an unconfirmed one', async () => {
    const { store } = await open()
    expect(await store.add(row('queue@example.com'))).toEqual({ inserted: true, mailQueued: true })
    expect(await store.add(row('QUEUE@example.com'))).toEqual({ inserted: false, mailQueued: false })
    expect(await store.outbox.counts()).toMatchObject({ queued: 1 })
    // Several equal addresses in one batch: one row, one mail.
    const results = await Promise.all(
      [row('batch@example.com'), row('Batch@example.com'), row('batch@EXAMPLE.com')].map((r) => store.add(r)),
    )
    expect(results.filter((r) => r.inserted)).toHaveLength(1)
    expect(results.filter((r) => r.mailQueued)).toHaveLength(1)
    expect(await store.outbox.counts()).toMatchObject({ queued: 2 })
  })

  it.skipIf(!available)('claims due mails once each, with a token that opens the page, and records what became of them', async () => {
    const { store } = await open()
    for (const email of ['m1@example.com', 'm2@example.com', 'm3@example.com']) await store.add(row(email))
    const [first, second] = await Promise.all([store.outbox.claim(2, 60_000), store.outbox.claim(2, 60_000)])
    const claimed = [...(first ?? []), ...(second ?? [])]
    expect(claimed.map((m) => m.to).sort()).toEqual(['m1@example.com', 'm2@example.com', 'm3@example.com'])
    expect(await store.outbox.claim(10, 60_000)).toEqual([]) // all leased
    const [a, b, c] = claimed
    if (!a || !b || !c) throw new Error('three mails')
    expect(a).toMatchObject({ kind: 'confirm', campaignId: null, attempt: 1 })
    expect(a.token).toMatch(/^[A-Za-z0-9_-]{43}$/)
    expect(a.messageKey).toMatch(/^[0-9a-f-]{36}$/)
    expect((await store.visitors.byToken(hashToken(a.token)))?.email).toBe(a.to)
    await store.outbox.markSent(a.id)
    await store.outbox.giveUp(b.id, 'bounced', '550 no such user')
    // A retry that is due now comes back with the same token and message key, as the next attempt.
    await store.outbox.retryAt(c.id, new Date(Date.now() - 1000).toISOString(), '451 later')
    expect(await store.outbox.nextDue()).not.toBeNull()
    const [again] = await store.outbox.claim(10, 60_000)
    expect(again).toMatchObject({ id: c.id, token: c.token, messageKey: c.messageKey, attempt: 2 })
    await store.outbox.extendLease([c.id], 60_000)
    expect(await store.outbox.counts()).toEqual({ queued: 0, sending: 1, sent: 1, failed: 0, bounced: 1 })
    // A lapsed lease (a crashed worker) makes the mail due again.
    await store.outbox.extendLease([c.id], -1000)
    expect((await store.outbox.claim(10, 60_000)).map((m) => m.id)).toEqual([c.id])
  })

  it.skipIf(!available)('counts what became of mails per recipient domain and day, and ties an event to its mail once', async () => {
    const { store } = await open()
    for (const email of ['a@Gmail.com', 'b@gmail.com', 'c@web.de']) await store.add(row(email))
    const mails = await store.outbox.claim(10, 60_000)
    const byTo = new Map(mails.map((m) => [m.to, m]))
    const [a, b, c] = [byTo.get('a@Gmail.com'), byTo.get('b@gmail.com'), byTo.get('c@web.de')]
    if (!a || !b || !c) throw new Error('three mails')
    await store.outbox.markSent(a.id)
    await store.outbox.markSent(c.id)
    await store.outbox.giveUp(b.id, 'bounced', '550 no such user')
    expect(await store.suppressions.messagesOf([a.messageKey, 'no-such-key'])).toEqual(
      new Map([[a.messageKey, { outboxId: a.id, email: 'a@Gmail.com' }]]),
    )
    const complaint = {
      email: 'a@Gmail.com',
      emailHash: 'hash-a',
      type: 'complaint' as const,
      source: 'test',
      eventId: 'e-1',
      outboxId: a.id,
    }
    expect(await store.suppressions.record([complaint])).toEqual({
      taken: true,
      outcomes: [{ recorded: true, suppressed: true, pausedCampaign: null }],
    })
    // The same event again, in a report with a single-use key: counted once; the key is then taken.
    expect(await store.suppressions.record([complaint], { once: ['nonce-1'] })).toEqual({
      taken: true,
      outcomes: [{ recorded: false, suppressed: false, pausedCampaign: null }],
    })
    expect(await store.suppressions.record([{ ...complaint, eventId: 'e-2' }], { once: ['nonce-1'] })).toEqual({ taken: false })
    expect(await store.suppressions.suppressedAmong(['hash-a', 'hash-c'])).toEqual(new Set(['hash-a']))
    const figures = await store.deliverability.figures()
    expect(figures.domains.map((d) => [d.domain, d.sent, d.delivered, d.hardBounced, d.complained])).toEqual([
      ['gmail.com', 2, 1, 1, 1],
      ['web.de', 1, 1, 0, 0],
    ])
    // Two mails accepted today (the refused one never reached an inbox), one complaint.
    expect(figures.complaintRate).toMatchObject({ complaints: 1, sent: 2, rate: 0.5, above: true })
  })

  it.skipIf(!available)('keeps what a visitor says, stops and restarts their mail, and deletes all of it', async () => {
    const { store } = await open()
    await store.add(row('visitor@example.com'))
    const [mail] = await store.outbox.claim(1, 60_000)
    if (!mail) throw new Error('a mail')
    const hash = hashToken(mail.token)
    const visitor = await store.visitors.byToken(hash)
    expect(visitor).toMatchObject({
      email: 'visitor@example.com',
      confirmed_at: null,
      unsubscribed_at: null,
      profile: { role: null, breeds: [], country: null, club: null, litters: null },
    })
    const id = visitor?.id ?? 0
    await store.visitors.confirm(id)
    await store.visitors.saveProfile(
      id,
      profileOf({
        role: 'club',
        breeds: [{ name: 'Beagle', side: 'dam', tests: ['hips', 'eyes'], otherTests: 'MLS' }, 'Basset Hound', 'Our own cross'],
        country: 'FR',
        club: 'SCC',
        litters: 2,
      }),
    )
    await store.visitors.setSubscribed(id, false)
    const after = await store.visitors.byToken(hash)
    expect(after?.confirmed_at).toMatch(/^\d{4}-\d\d-\d\dT/)
    expect(after?.unsubscribed_at).toMatch(/^\d{4}-/)
    // Each name kept as typed beside the catalogue's id (none for a name it does not know).
    const profile = {
      role: 'club',
      breeds: [
        { name: 'Beagle', breed: 'beagle', side: 'dam', tests: ['hips', 'eyes'], otherTests: 'MLS' },
        { name: 'Basset Hound', breed: 'basset-hound', side: null, tests: [], otherTests: null },
        { name: 'Our own cross', breed: null, side: null, tests: [], otherTests: null },
      ],
      country: 'FR',
      club: 'SCC',
      litters: 2,
    }
    expect(after?.profile).toEqual(profile)
    await store.visitors.setSubscribed(id, true)
    expect((await store.visitors.byToken(hash))?.unsubscribed_at).toBeNull()
    const data = await store.visitors.data(id)
    expect(data.signup).toMatchObject({
      email: 'visitor@example.com',
      role: 'club',
      breeds: ['Beagle', 'Basset Hound', 'Our own cross'],
      country: 'FR',
    })
    expect(data.profile).toEqual(profile)
    expect(data.mails).toMatchObject([{ kind: 'confirm', state: 'sending', attempts: 1 }])
    expect(data.page_links).toBe(1)
    const [listed] = await store.list({ limit: 1 })
    expect(listed).toMatchObject({
      role: 'club',
      breeds: ['Beagle', 'Basset Hound', 'Our own cross'],
      country: 'FR',
      mail_state: 'sending',
    })
    expect(await store.breeds.unmatched(10)).toEqual([{ name: 'Our own cross', count: 1 }])
    await store.visitors.remove(id)
    expect(await store.visitors.byToken(hash)).toBeUndefined()
    // The breeds went with it: no name it typed is left.
    expect(await store.breeds.unmatched(10)).toEqual([])
    expect(await store.count()).toBe(0)
    expect(await store.outbox.counts()).toEqual({ queued: 0, sending: 0, sent: 0, failed: 0, bounced: 0 })
  })

  it.skipIf(!available)('keeps partners by their keys, each change audited, and counts who first joined through each', async () => {
    const { store } = await open()
    const audit = (action: 'partner added' | 'partner changed' | 'partner key rotated', target: string | null = null) => ({
      actorId: null,
      actor: 'test',
      action,
      target,
      detail: null,
      requestId: null,
    })
    const fields = {
      name: 'Labrador Club',
      origins: ['https://club.example'],
      thanks_url: null,
      breed: 'labrador-retriever',
      country: 'DE',
    }
    const id = await store.partners.add({ ...fields, key: 'k'.repeat(22) }, audit('partner added'))
    const other = await store.partners.add({ ...fields, name: 'Pug Kennel', key: 'p'.repeat(22), breed: null }, audit('partner added'))
    expect(await store.partners.byKey('k'.repeat(22))).toMatchObject({ id, ...fields, disabled_at: null })

    // A sign-up belongs to the way it first joined: the same address through another partner stays the first's.
    await store.add(row('ada@example.com', { partner: id }))
    await store.add(row('ADA@example.com', { partner: other }))
    await store.add(row('bea@example.com', { partner: id }))
    await store.add(row('cem@example.com'))
    expect((await store.partners.list()).map((p) => [p.name, p.signups, p.confirmed])).toEqual([
      ['Labrador Club', 2, 0],
      ['Pug Kennel', 0, 0],
    ])
    // Credit only on confirmation; a deleted sign-up leaves both counts.
    const [ada, bea] = await store.list({ limit: 2 })
    if (!ada || !bea) throw new Error('two sign-ups listed')
    await store.visitors.confirm(ada.id)
    await store.visitors.confirm(ada.id)
    expect(await store.partners.get(id)).toMatchObject({ signups: 2, confirmed: 1 })
    await store.visitors.saveProfile(ada.id, {
      ...profileOf({ role: null, country: 'DE', breeds: ['Labrador', 'Our own cross'] }),
    })
    expect(await store.partners.breakdown(id, 10)).toEqual({
      countries: [
        { country: 'DE', signups: 1, confirmed: 1 },
        { country: null, signups: 1, confirmed: 0 },
      ],
      breeds: [
        { breed: 'labrador-retriever', name: 'Labrador', signups: 1, confirmed: 1 },
        { breed: null, name: 'Our own cross', signups: 1, confirmed: 1 },
      ],
    })
    await store.visitors.remove(ada.id)
    expect(await store.partners.get(id)).toMatchObject({ signups: 1, confirmed: 0 })

    // A new key opens it; the old one opens nothing from that moment; disabled, no key opens it.
    expect(await store.partners.rotate(id, 'n'.repeat(22), audit('partner key rotated', `partner ${id}`))).toBe(true)
    expect(await store.partners.byKey('k'.repeat(22))).toBeUndefined()
    expect(await store.partners.byKey('n'.repeat(22))).toMatchObject({ id })
    expect(await store.partners.change(id, { disabled: true, name: 'Labrador Club e.V.' }, audit('partner changed', `partner ${id}`))).toBe(
      true,
    )
    expect(await store.partners.byKey('n'.repeat(22))).toBeUndefined()
    expect(await store.partners.get(id)).toMatchObject({ name: 'Labrador Club e.V.', disabled_at: expect.stringMatching(/^\d{4}-/) })
    await store.partners.change(id, { disabled: false }, audit('partner changed', `partner ${id}`))
    expect(await store.partners.byKey('n'.repeat(22))).toMatchObject({ id, disabled_at: null })
    expect(await store.partners.rotate(999, 'x'.repeat(22), audit('partner key rotated'))).toBe(false)
    expect(await store.partners.change(999, { disabled: true }, audit('partner changed'))).toBe(false)
    const log = await store.team.auditLog({ limit: 10 })
    expect(log.map((line) => [line.action, line.target])).toEqual([
      ['partner changed', `partner ${id}`],
      ['partner changed', `partner ${id}`],
      ['partner key rotated', `partner ${id}`],
      ['partner added', `partner ${other}`],
      ['partner added', `partner ${id}`],
    ])
  })

  /** An import's fields as the route or the command line starts one. */
  const importOf = (fields: Partial<ImportStart> = {}): ImportStart => ({
    mode: 'subscribe',
    existing: 'skip',
    basis: 'Members who ticked news about Kennect on the club form',
    label: null,
    sha256: 'a'.repeat(64),
    bytes: 1000,
    ignoredColumns: ['First Name'],
    leaseMs: 60_000,
    ...fields,
  })
  const startedBy = (id: number): AuditEntry => ({
    actorId: null,
    actor: 'ADMIN_TOKEN',
    action: 'import started',
    target: `import ${id}`,
    detail: null,
    requestId: null,
  })
  /** A record as the reader makes it (the hash stands in for the suppression list's). */
  const imported = (line: number, email: string, extra: Partial<ImportRecord> = {}): ImportRecord => ({
    line,
    email,
    emailHash: `hash:${email.toLowerCase()}`,
    locale: 'en',
    country: null,
    role: null,
    breeds: [],
    side: null,
    ...extra,
  })
  const started = async (store: WaitlistStore, fields?: Partial<ImportStart>) => {
    const result = await store.imports.start(importOf(fields), startedBy)
    if (result === 'busy') throw new Error('an import is running')
    return result.id
  }

  it.skipIf(!available)('runs one import at a time, and another once it has ended', async () => {
    const { store } = await open()
    const id = await started(store)
    expect(await store.imports.running()).toBe(true)
    expect(await store.imports.start(importOf(), startedBy)).toBe('busy')
    expect(await store.imports.finish(id, { status: 'done', rows: 0, error: null })).toBe(true)
    expect(await store.imports.finish(id, { status: 'done', rows: 0, error: null })).toBe(false)
    expect(await store.imports.running()).toBe(false)
    const next = await started(store)
    expect(next).toBeGreaterThan(id)
    const audit = await store.team.auditLog({ limit: 10 })
    expect(audit.map((line) => [line.action, line.target])).toEqual([
      ['import started', `import ${next}`],
      ['import finished', `import ${id}`],
      ['import started', `import ${id}`],
    ])
    expect(audit[1]?.detail).toMatchObject({ status: 'done', sha256: 'a'.repeat(64), mode: 'subscribe', added: 0 })
  })

  it.skipIf(!available)(
    'writes a batch whole: unconfirmed sign-ups of the import, their breeds, its lines and counts; no mail, no webhook per row',
    async () => {
      const { store } = await open()
      await store.webhooks.addEndpoint(
        {
          url: 'https://hooks.example.com/in',
          description: '',
          events: ['signup.created', 'signup.profile_updated', 'import.completed'],
          enabled: true,
          include_email: false,
          secret: `whsec_${Buffer.alloc(24, 1).toString('base64')}`,
        },
        startedBy(0),
      )
      await store.add(row('known@example.com'))
      const id = await started(store, { existing: 'fill' })
      const batch: ImportBatch = {
        records: [
          imported(2, 'Ada@Example.com', {
            locale: 'de',
            country: 'DE',
            role: 'breeder',
            breeds: [{ name: 'Deutscher Schäferhund', ...readBreedName('Deutscher Schäferhund') }],
            side: 'stud',
          }),
          imported(3, 'known@example.com', { country: 'FR' }),
        ],
        lines: [{ line: 4, email: 'not an address', reason: 'invalid_email' }],
        readBytes: 120,
      }
      expect(await store.imports.write(id, batch, 60_000)).toBe(true)
      const status = await store.imports.status(id)
      expect(status).toMatchObject({
        status: 'running',
        rows: null,
        processed: 3,
        added: 1,
        filled: 1,
        skipped: 0,
        failed: 1,
        readBytes: 120,
      })
      const [ada] = await store.list({ limit: 1, search: 'ada@' })
      expect(ada).toMatchObject({
        utm_source: `import:${id}`,
        confirmed_at: null,
        country: 'DE',
        role: 'breeder',
        locale: 'de',
        breeds: ['Deutscher Schäferhund'],
      })
      const [known] = await store.list({ limit: 1, search: 'known@' })
      expect(known?.country).toBe('FR')
      // Only the join's own confirmation mail: the import queued none.
      expect(await store.outbox.counts()).toMatchObject({ queued: 1 })
      expect(await store.imports.lines(id, 0, 10)).toEqual([{ line: 4, email: 'not an address', reason: 'invalid_email' }])
      expect(await store.imports.finish(id, { status: 'done', rows: 3, error: null })).toBe(true)
      const deliveries = await store.webhooks.claim(100, 60_000)
      expect(deliveries.map((d) => d.type).sort()).toEqual(['import.completed', 'signup.created'])
      expect(deliveries.find((d) => d.type === 'import.completed')?.data).toEqual({
        id,
        status: 'done',
        mode: 'subscribe',
        rows: 3,
        processed: 3,
        added: 1,
        filled: 1,
        skipped: 0,
        failed: 1,
      })
    },
  )

  it.skipIf(!available)('writes nothing of a batch the table refuses, and nothing once cancelled; what was written stays', async () => {
    const { store } = await open()
    const id = await started(store)
    expect(await store.imports.write(id, { records: [imported(2, 'first@example.com')], lines: [], readBytes: 40 }, 60_000)).toBe(true)
    // A country the table's CHECK refuses: the whole batch is rolled back, its good row with it.
    await expect(
      store.imports.write(
        id,
        { records: [imported(3, 'second@example.com'), imported(4, 'third@example.com', { country: 'zz' })], lines: [], readBytes: 90 },
        60_000,
      ),
    ).rejects.toThrow()
    expect(await store.count()).toBe(1)
    expect(await store.imports.status(id)).toMatchObject({ processed: 1, added: 1, readBytes: 40 })
    const cancelled = await store.imports.cancel(id, { ...startedBy(id), action: 'import cancelled' })
    expect(cancelled).toMatchObject({ status: 'cancelled', processed: 1, added: 1 })
    expect(await store.imports.write(id, { records: [imported(5, 'late@example.com')], lines: [], readBytes: 120 }, 60_000)).toBe(false)
    expect(await store.count()).toBe(1)
    expect(await store.imports.cancel(id, startedBy(id))).toBe('ended')
    expect(await store.imports.cancel(id + 1, startedBy(id))).toBeUndefined()
  })

  it.skipIf(!available)('fails an import whose lease ran out, keeping its prefix, and lets the next one start', async () => {
    const { store } = await open()
    const id = await started(store, { leaseMs: 1 })
    // Its worker's lease: each batch renews it, for as long as the batch says.
    expect(await store.imports.write(id, { records: [imported(2, 'kept@example.com')], lines: [], readBytes: 40 }, 1)).toBe(true)
    await new Promise((resolve) => setTimeout(resolve, 20))
    expect(await store.imports.running()).toBe(false)
    expect(await store.imports.status(id)).toMatchObject({ status: 'failed', added: 1, error: expect.stringMatching(/^interrupted/) })
    expect(await store.count()).toBe(1)
    expect(await store.imports.write(id, { records: [imported(3, 'lost@example.com')], lines: [], readBytes: 80 }, 60_000)).toBe(false)
    await started(store)
  })

  it.skipIf(!available)('suppresses in suppress mode: new entries added, known ones skipped, sign-ups stop e-mails', async () => {
    const { store } = await open()
    await store.add(row('member@example.com'))
    expect(await store.suppressions.add('already@example.com', 'hash:already@example.com')).toBe(true)
    const id = await started(store, { mode: 'suppress', basis: '' })
    const batch = {
      records: [imported(2, 'Member@example.com'), imported(3, 'already@example.com'), imported(4, 'stranger@example.com')],
      lines: [],
      readBytes: 90,
    }
    expect(await store.imports.write(id, batch, 60_000)).toBe(true)
    expect(await store.imports.status(id)).toMatchObject({ processed: 3, added: 2, skipped: 1, failed: 0 })
    expect(await store.imports.lines(id, 0, 10)).toEqual([{ line: 3, email: 'already@example.com', reason: 'suppressed' }])
    const [member] = await store.list({ limit: 1 })
    expect(member?.unsubscribed_at).not.toBeNull()
    expect(member?.suppressed).toBe('imported')
    // Its confirmation mail, queued by the join, never leaves.
    expect(await store.outbox.counts()).toMatchObject({ queued: 0, failed: 1 })
    expect(await store.suppressions.suppressedAmong(['hash:stranger@example.com'])).toEqual(new Set(['hash:stranger@example.com']))
  })

  it.skipIf(!available)('answers ping while open, and rejects as unavailable once closed', async () => {
    const { store } = await open()
    await expect(store.ping()).resolves.toBeUndefined()
    await store.close()
    await expect(store.ping()).rejects.toBeInstanceOf(StoreUnavailableError)
    await expect(store.add(row('late@example.com'))).rejects.toBeInstanceOf(StoreUnavailableError)
  })
})

describe.skipIf(!STORES.find((s) => s.kind === 'postgres')?.available)('PostgreSQL durability settings', () => {
  it('keeps synchronous_commit on even when the URL asks for it off', async () => {
    const db = await freshDatabase('postgres')
    const url = new URL(db.env.DATABASE_URL ?? '')
    url.searchParams.set('options', [url.searchParams.get('options'), '-c synchronous_commit=off'].filter(Boolean).join(' '))
    // The store checks the setting of its own session at start-up and refuses to run without it.
    const store = await createStore(loadConfig({ DATABASE_URL: url.toString() }), quiet)
    expect(await store.add(row('durable@example.com'))).toEqual({ inserted: true, mailQueued: true })
    await store.close()
    await db.cleanup()
  })
})
