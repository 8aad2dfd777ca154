// The import's reading of a file (server/imports/): records with the file's own line numbers,
// whatever the file's line breaks, delimiter and quoting; each record read as the join reads one.
import { Readable } from 'node:stream'
import { describe, expect, it } from 'vitest'
import { readCsv } from '../../server/imports/csv'
import { readBreedName } from '../../server/breeds/catalogue'
import { readCountry, readHeader, readLanguage, readRecord, warmReaders } from '../../server/imports/read'

/** Every record of `text` (sent in chunks of `size` bytes), as the import sees them. */
async function records(text: string | Buffer, size = 7) {
  const bytes = Buffer.isBuffer(text) ? text : Buffer.from(text, 'utf8')
  const chunks = Array.from({ length: Math.ceil(bytes.length / size) }, (_, i) => bytes.subarray(i * size, (i + 1) * size))
  const seen: { line: number; cells?: string[]; broken?: true }[] = []
  for await (const item of readCsv(Readable.from(chunks)))
    seen.push('broken' in item ? { line: item.line, broken: true } : { line: item.line, cells: item.cells })
  return seen
}

describe('an import reading a CSV file', () => {
  // First in the file: the names' indexes are made here, not by an earlier reading.
  it('makes the countries’ and the breeds’ names in steps, resting between them, before its first record', async () => {
    let rests = 0
    await warmReaders(async () => void rests++)
    // Six languages of countries and the catalogue in slices of 40 breeds: never all at once.
    expect(rests).toBeGreaterThanOrEqual(6 + 9)
    expect(readCountry('Niemcy')).toBe('DE')
    expect(readBreedName('Owczarek niemiecki').breed).toBe('german-shepherd-dog')
    // Made once: a second import rests no more.
    rests = 0
    await warmReaders(async () => void rests++)
    expect(rests).toBe(0)
  })

  it('numbers each record by the file’s own line of its first line, with CRLF inside quotes, empty lines and a BOM', async () => {
    const file =
      '\uFEFFEmail Address,Breeds\r\nada@example.com,"Pug\r\nand more"\r\n\r\n\r\ngrace@example.com,Whippet\r\nlin@example.com,"a\r\nb\r\nc"\r\nlast@example.com,x'
    expect(await records(file)).toEqual([
      { line: 1, cells: ['Email Address', 'Breeds'] },
      { line: 2, cells: ['ada@example.com', 'Pug\r\nand more'] },
      { line: 6, cells: ['grace@example.com', 'Whippet'] },
      { line: 7, cells: ['lin@example.com', 'a\r\nb\r\nc'] },
      { line: 10, cells: ['last@example.com', 'x'] },
    ])
  })

  it('numbers them alike in a file of LF line breaks', async () => {
    expect(await records('email,breeds\n\nada@example.com,"Pug\nand more"\ngrace@example.com,Whippet\n')).toEqual([
      { line: 1, cells: ['email', 'breeds'] },
      { line: 3, cells: ['ada@example.com', 'Pug\nand more'] },
      { line: 5, cells: ['grace@example.com', 'Whippet'] },
    ])
  })

  it('tells a semicolon file from its header, and reads names in any script whatever the chunks', async () => {
    const file = 'email;country;breeds\nola@example.com;Łódź, Polska;"Немецкая овчарка|Mops"\nkai@example.com;Deutschland;Whippet\n'
    for (const size of [1, 3, 64])
      expect(await records(file, size)).toEqual([
        { line: 1, cells: ['email', 'country', 'breeds'] },
        { line: 2, cells: ['ola@example.com', 'Łódź, Polska', 'Немецкая овчарка|Mops'] },
        { line: 3, cells: ['kai@example.com', 'Deutschland', 'Whippet'] },
      ])
  })

  it('reads a stray quote as a character, and stops at a quote never closed, from its line', async () => {
    expect(await records('email\n"ada@x.com" oops\nb@"x.com\nc@x.com\n"open\nd@x.com\n')).toEqual([
      { line: 1, cells: ['email'] },
      { line: 2, cells: ['"ada@x.com" oops'] },
      { line: 3, cells: ['b@"x.com'] },
      { line: 4, cells: ['c@x.com'] },
      { line: 5, broken: true },
    ])
  })

  it('finds the address under email, e-mail or Email Address in any case, and names the columns it does not read', () => {
    expect(readHeader([' E-Mail ', 'First Name', 'COUNTRY', 'MEMBER_RATING', ''])).toEqual({
      cells: { email: 0, country: 2 },
      names: { email: 'E-Mail', country: 'COUNTRY' },
      ignored: ['First Name', 'MEMBER_RATING'],
    })
    expect(readHeader(['Email Address', 'Language', 'Role', 'Breeds', 'Side'])?.cells).toEqual({
      email: 0,
      locale: 1,
      role: 2,
      breeds: 3,
      side: 4,
    })
    expect(readHeader(['name', 'mail'])).toBeNull()
  })

  it('reads a country by its code or its name in English or any of our languages, and a language by its code or name', () => {
    expect(['de', 'DE', 'Germany', 'Deutschland', 'allemagne', 'Niemcy', 'Polska', 'España', 'UK', '  italia '].map(readCountry)).toEqual([
      'DE',
      'DE',
      'DE',
      'DE',
      'DE',
      'DE',
      'PL',
      'ES',
      'GB',
      'IT',
    ])
    expect(readCountry('')).toBeNull()
    expect(readCountry('Atlantis')).toBeUndefined()
    expect(['de', 'de-AT', 'PL', 'Deutsch', 'German', 'polski', 'xx', ''].map(readLanguage)).toEqual([
      'de',
      'de',
      'pl',
      'de',
      'de',
      'pl',
      'en',
      'en',
    ])
  })

  it('reads a record as the join reads a sign-up, its failure named', () => {
    const header = readHeader(['email', 'language', 'country', 'role', 'breeds', 'side'])
    if (!header) throw new Error('no header')
    const read = (cells: string[], mode: 'subscribe' | 'suppress' = 'subscribe') =>
      readRecord(cells, header, mode, { blockedDomain: (domain) => domain === 'mailinator.com' })
    expect(read([' ada@example.com ', 'de', 'DE', 'Breeder', 'Deutscher Schäferhund; Mops | mops ; Our own cross', 'stud'])).toEqual({
      ok: true,
      record: {
        email: 'ada@example.com',
        locale: 'de',
        country: 'DE',
        role: 'breeder',
        side: 'stud',
        breeds: [
          { name: 'Deutscher Schäferhund', key: expect.any(String), breed: 'german-shepherd-dog' },
          { name: 'Mops', key: 'mops', breed: 'pug' },
          { name: 'Our own cross', key: expect.any(String), breed: null },
        ],
      },
    })
    expect(read(['not an address'])).toEqual({ ok: false, email: 'not an address', reason: 'invalid_email' })
    expect(read(['who@mailinator.com'])).toEqual({ ok: false, email: 'who@mailinator.com', reason: 'disposable_email' })
    expect(read(['a@example.com', '', 'Atlantis'])).toMatchObject({ ok: false, reason: 'unknown_country' })
    expect(read(['a@example.com', '', '', 'judge'])).toMatchObject({ ok: false, reason: 'unknown_role' })
    expect(read(['a@example.com', '', '', '', 'Pug', 'puppy'])).toMatchObject({ ok: false, reason: 'unknown_side' })
    expect(read(['a@example.com', '', '', '', 'a;b;c;d;e;f'])).toMatchObject({ ok: false, reason: 'too_many_breeds' })
    expect(read(['a@example.com', '', '', '', 'x'.repeat(61)])).toMatchObject({ ok: false, reason: 'breed_too_long' })
    // Suppressing reads the address alone.
    expect(read(['a@example.com', '', 'Atlantis', 'judge'], 'suppress')).toMatchObject({
      ok: true,
      record: { email: 'a@example.com', country: null },
    })
  })
})
