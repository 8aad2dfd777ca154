import { describe, expect, it } from 'vitest'
import { csvCell, csvLine } from '../../server/csv'

describe('csvCell', () => {
  it.each([
    ['=HYPERLINK("http://x","y")', `"'=HYPERLINK(""http://x"",""y"")"`],
    ['+1', "'+1"],
    ['-1+2', "'-1+2"],
    ['@SUM(A1)', "'@SUM(A1)"],
    ['\tcmd', "'\tcmd"],
    ['\rcmd', `"'\rcmd"`],
  ])('neutralises %j so a spreadsheet shows it as text', (input, expected) => {
    expect(csvCell(input)).toBe(expected)
  })

  it('quotes commas, quotes and line breaks, and leaves plain text alone', () => {
    expect(csvCell('a,b')).toBe('"a,b"')
    expect(csvCell('say "hi"')).toBe('"say ""hi"""')
    expect(csvCell('two\nlines')).toBe('"two\nlines"')
    expect(csvCell('ada@example.com')).toBe('ada@example.com')
    expect(csvCell(null)).toBe('')
    expect(csvCell(42)).toBe('42')
  })

  it('writes a row in the header order', () => {
    expect(
      csvLine({ id: 1, email: 'a@b.co', created_at: '2026-11-21T10:00:00.000Z', utm_source: '=1', utm_medium: null, utm_campaign: null, referrer: 'x.example' }),
    ).toBe("1,a@b.co,2026-11-21T10:00:00.000Z,'=1,,,x.example\r\n")
  })
})
