import { parse } from 'csv-parse/sync'
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import type { SignUp } from '../../contract/admin-api'
import { CSV_HEADER, csvCell, csvLine } from '../../server/operators/csv'

/** A sign-up with only the given fields set. */
const signUp = (fields: Partial<SignUp>): SignUp => ({
  id: 1,
  email: 'a@b.co',
  created_at: '2026-11-21T10:00:00.000Z',
  utm_source: null,
  utm_medium: null,
  utm_campaign: null,
  referrer: null,
  confirmed_at: null,
  unsubscribed_at: null,
  role: null,
  breeds: [],
  country: null,
  mail_state: null,
  mail_event: null,
  suppressed: null,
  invited_by: null,
  invited_by_email: null,
  invites_confirmed: 0,
  locale: 'en',
  platform: null,
  claimed_at: null,
  partner: null,
  import_id: null,
  import_basis: null,
  imported_at: null,
  ...fields,
})

/** What a spreadsheet may take for the start of a formula (OWASP, CSV injection). */
const FORMULA_START = /^[=+\-@\t\r]/
/** Where a spreadsheet may start a new cell: comma, semicolon (most European locales), tab, pipe, line breaks. */
const SEPARATORS = [',', ';', '\t', '|', '\r', '\n']

/** Every piece a spreadsheet splitting the line on `separator` would make, quotes and spaces stripped. */
function piecesSplitOn(line: string, separator: string): string[] {
  return line.split(separator).map((piece) => piece.replace(/^[" ]+/, ''))
}

const hostile = ['x;=1+2', '=HYPERLINK("http://x","y")', 'a,+1', 'ok|@SUM(A1)', 'a\n-1', 'b\t=2', ' =3', '\rcmd', 'x; =1', '==', '-']

describe('csvCell', () => {
  it.each([
    ['=HYPERLINK("http://x","y")', `"'=HYPERLINK(""http://x"",""y"")"`],
    ['+1', `"'+1"`],
    ['-1+2', `"'-1+2"`],
    ['@SUM(A1)', `"'@SUM(A1)"`],
    ['\tcmd', `"'\tcmd"`],
    ['\rcmd', `"'\rcmd"`],
    ['x;=1+2', `"x;'=1+2"`],
    ['a|@b', `"a|'@b"`],
    ['a,  -1', `"a,  '-1"`],
  ])('neutralises %j, after any separator a spreadsheet may split on', (input, expected) => {
    expect(csvCell(input)).toBe(expected)
  })

  it('quotes every cell, doubles quotes, keeps plain text and leaves null empty', () => {
    expect(csvCell('a,b')).toBe('"a,b"')
    expect(csvCell('say "hi"')).toBe('"say ""hi"""')
    expect(csvCell('two\nlines')).toBe('"two\nlines"')
    expect(csvCell('ada-lovelace+dogs@example.com')).toBe('"ada-lovelace+dogs@example.com"')
    expect(csvCell(null)).toBe('')
    expect(csvCell(42)).toBe('"42"')
  })

  it('writes a row in the header order, breeds in one cell', () => {
    expect(
      csvLine(
        signUp({
          utm_source: '=1',
          referrer: 'x.example',
          confirmed_at: '2026-11-22T08:00:00.000Z',
          role: 'breeder',
          breeds: ['Labrador Retriever', '=Beagle'],
          country: 'GB',
          mail_state: 'sent',
          partner: 3,
        }),
      ),
    ).toBe(
      `"1","a@b.co","2026-11-21T10:00:00.000Z","'=1",,,"x.example","2026-11-22T08:00:00.000Z",,"breeder","Labrador Retriever; '=Beagle","GB","sent",,"0","en",,,"3"\r\n`,
    )
  })
})

describe('the CSV export, read by a strict parser and by spreadsheets that split on other separators', () => {
  const line = (values: string[]) =>
    csvLine(
      signUp({
        id: 7,
        utm_source: values[0] ?? null,
        utm_medium: values[1] ?? null,
        utm_campaign: values[2] ?? null,
        referrer: values[3] ?? null,
      }),
    )

  function check(values: string[]) {
    const text = CSV_HEADER + line(values)
    // RFC 4180, strictly: no loose quotes, the same number of cells on every line.
    const [header, row] = parse(text, { relax_quotes: false, relax_column_count: false, record_delimiter: '\r\n' }) as string[][]
    expect(header).toHaveLength(19)
    expect(row).toHaveLength(19)
    for (const cell of row ?? []) expect(cell).not.toMatch(FORMULA_START)
    // Each value comes back whole: apostrophes were added, nothing else changed.
    const withoutApostrophes = (text: string) => text.replaceAll("'", '')
    expect(row?.slice(3, 7).map(withoutApostrophes)).toEqual([0, 1, 2, 3].map((i) => withoutApostrophes(values[i] ?? '')))
    for (const separator of SEPARATORS) for (const piece of piecesSplitOn(text, separator)) expect(piece).not.toMatch(/^[=+\-@]/)
  }

  it('holds for hostile values', () => {
    for (let i = 0; i < hostile.length; i += 4) check(hostile.slice(i, i + 4))
  })

  it('holds for any text (property test)', () => {
    const text = fc.string({ unit: fc.constantFrom('=', '+', '-', '@', ';', ',', '|', '\t', '\r', '\n', ' ', '"', "'", 'a', '1') })
    fc.assert(
      fc.property(fc.array(text, { minLength: 4, maxLength: 4 }), (values) => check(values)),
      { numRuns: 500 },
    )
  })
})
