import { describe, expect, it } from 'vitest'
import { PostgrestError } from '../../server/waitlist/postgrest-errors'
import { isValidEmail } from '../../server/waitlist/check-row'
import { type InsertRequest, parsePrefer, prepareInsert } from '../../server/waitlist/postgrest-insert'

const request = (body: unknown, extra: Partial<InsertRequest> = {}): InsertRequest => ({
  body: typeof body === 'string' ? body : JSON.stringify(body),
  columns: undefined,
  onConflict: false,
  prefer: new Map(),
  ...extra,
})

function failure(input: InsertRequest): { status: number; code: string | null; message: string } {
  try {
    prepareInsert(input)
  } catch (error) {
    if (error instanceof PostgrestError) return { status: error.status, code: error.code, message: error.message }
    throw error
  }
  throw new Error('expected prepareInsert to fail')
}

describe('prepareInsert', () => {
  it('accepts one address and fills the attribution and invite columns with null', () => {
    expect(prepareInsert(request({ email: 'Ada@Example.com' }))).toEqual({
      email: 'Ada@Example.com',
      utm_source: null,
      utm_medium: null,
      utm_campaign: null,
      referrer: null,
      invite: null,
      locale: 'en',
    })
  })

  it('keeps a well-formed invite code and ignores any other, never refusing the row', () => {
    expect(prepareInsert(request({ email: 'a@b', invite: 'Ab-3_xY9Ab-3_xY9Ab-3_x' }))).toMatchObject({ invite: 'Ab-3_xY9Ab-3_xY9Ab-3_x' })
    for (const invite of ['x'.repeat(65), 'a b', 'a\u0000b', 7, true, { a: 1 }, ['x'], ''])
      expect(prepareInsert(request({ email: 'a@b', invite }))).toMatchObject({ email: 'a@b', invite: null })
  })

  it('accepts a one-row array and keeps attribution values', () => {
    const row = prepareInsert(request([{ email: 'a@b', utm_source: 'newsletter', referrer: 'dogshow.example' }]))
    expect(row).toMatchObject({ email: 'a@b', utm_source: 'newsletter', referrer: 'dogshow.example' })
  })

  it('inserts nothing for an empty array', () => {
    expect(prepareInsert(request([]))).toBeNull()
  })

  it.each([
    ['empty body', '', 'PGRST102', 'Empty or invalid json'],
    ['broken JSON', '}{', 'PGRST102', 'Empty or invalid json'],
    ['a JSON string', '"a@b.co"', 'PGRST102', 'Empty or invalid json'],
    ['rows with different keys', [{ email: 'a@b.co' }, { email: 'c@d.co', referrer: 'x' }], 'PGRST102', 'All object keys must match'],
    ['an array of non-objects', [1, 2], 'PGRST102', 'All object keys must match'],
    ['two rows', [{ email: 'a@b.co' }, { email: 'c@d.co' }], 'too_many_rows', 'Too many rows in request body'],
    [
      'an unknown column',
      { email: 'a@b.co', website: 'x' },
      'PGRST204',
      "Could not find the 'website' column of 'waitlist' in the schema cache",
    ],
    ['id', { email: 'a@b.co', id: 1 }, '42501', 'permission denied for table waitlist'],
    ['no email', {}, '23502', 'null value in column "email" of relation "waitlist" violates not-null constraint'],
    ['a null email', { email: null }, '23502', 'null value in column "email" of relation "waitlist" violates not-null constraint'],
    ['a NUL character', { email: 'a\u0000@b.co' }, '22P05', 'unsupported Unicode escape sequence'],
    ['a malformed address', { email: 'x' }, '23514', 'new row for relation "waitlist" violates check constraint "waitlist_email_format"'],
    ['a number', { email: 5 }, '23514', 'new row for relation "waitlist" violates check constraint "waitlist_email_format"'],
    [
      'a non-ASCII address',
      { email: 'zoë@example.com' },
      '23514',
      'new row for relation "waitlist" violates check constraint "waitlist_email_format"',
    ],
    [
      'a 255-character address',
      { email: `${'a'.repeat(59)}@${'b'.repeat(63)}.${'c'.repeat(63)}.${'d'.repeat(63)}.com` },
      '23514',
      'new row for relation "waitlist" violates check constraint "waitlist_email_length"',
    ],
    [
      'a 65-character local part',
      { email: `${'a'.repeat(65)}@b.co` },
      '23514',
      'new row for relation "waitlist" violates check constraint "waitlist_email_length"',
    ],
    [
      'a 201-character source',
      { email: 'a@b.co', utm_source: 'x'.repeat(201) },
      '23514',
      'new row for relation "waitlist" violates check constraint "waitlist_attribution_length"',
    ],
  ])('rejects %s', (_name, body, code, message) => {
    expect(failure(request(body))).toMatchObject({ code, message })
  })

  it('checks in the protocol order: unknown column before the missing address', () => {
    expect(failure(request({ website: 'x' })).code).toBe('PGRST204')
    expect(failure(request({ email: 'x', created_at: 'now' })).code).toBe('42501')
  })

  it('takes only the columns named by ?columns= and ignores other keys', () => {
    expect(prepareInsert(request({ email: 'a@b.co', extra: 1 }, { columns: '"email"' }))).toMatchObject({ email: 'a@b.co' })
    expect(failure(request({ email: 'a@b.co' }, { columns: '"email","nope"' })).code).toBe('PGRST204')
  })

  it('refuses on_conflict, representation and resolution preferences', () => {
    expect(failure(request({ email: 'a@b.co' }, { onConflict: true })).code).toBe('42P10')
    for (const prefer of ['return=representation', 'return=headers-only', 'resolution=ignore-duplicates']) {
      expect(failure(request({ email: 'a@b.co' }, { prefer: parsePrefer(prefer) }))).toMatchObject({ status: 401, code: '42501' })
    }
  })
})

describe('isValidEmail', () => {
  it.each(['a@b', 'a@b.co', "o'brien+dogs@kennel-club.org.uk"])('accepts %s', (email) => expect(isValidEmail(email)).toBe(true))
  it.each(['', 'a', 'a@', '@b.co', 'a b@c.d', 'a@-b.co', 'a@b-.co', 'a@b..co'])('rejects %j', (email) =>
    expect(isValidEmail(email)).toBe(false),
  )
  it('allows exactly 254 characters and a 64-character local part', () => {
    const local = 'a'.repeat(64)
    const domain = `${'b'.repeat(63)}.${'c'.repeat(63)}.${'d'.repeat(61)}`
    const email = `${local}@${domain}`
    expect(email).toHaveLength(254)
    expect(isValidEmail(email)).toBe(true)
  })
})

describe('parsePrefer', () => {
  it('reads comma-separated preferences, repeated headers included', () => {
    const prefer = parsePrefer(['return=minimal, count=exact', 'tx=commit'])
    expect(Object.fromEntries(prefer)).toEqual({ return: 'minimal', count: 'exact', tx: 'commit' })
  })
})
