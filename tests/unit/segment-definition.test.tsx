// One segment definition (contract/segment.ts), read by the API, the composer and the CLI: for every
// field of it, a segment with that field set passes the API's schema, is drawn by the composer and
// read back the same, and is given through the CLI's flag and read back the same. A field the
// definition gains is walked here with no change to this file.
import Fastify from 'fastify'
import { parseArgs } from 'node:util'
import { renderToStaticMarkup } from 'react-dom/server'
import { describe, expect, it } from 'vitest'
import type { Segment } from '../../contract/campaigns'
import { LOCALES } from '../../contract/locales'
import {
  SEGMENT,
  SEGMENT_FIELDS,
  type SegmentField,
  type SegmentFieldName,
  segmentProblems,
  tidySegment,
  TRISTATE_ANSWERS,
} from '../../contract/segment'
import { segmentSchema } from '../../server/operators/campaign-routes'
import { segmentFlags, segmentHelp, segmentOf as segmentOfOptions } from '../../server/operators/cli-campaigns'
import { UsageError } from '../../server/operators/cli-common'
import { adminContent, adminContentFor } from '../support/admin-words'
import { SegmentFields, segmentOf as segmentOfForm } from '../../web/admin/views/campaigns/segment-fields'

/** A value for a field, from its kind: lists of two (a free text with a comma), a moment with its zone. */
function sampleOf(field: SegmentField): unknown {
  switch (field.kind) {
    case 'choice':
      return field.of.slice(0, 2)
    case 'codes':
      return [field.of[1], field.of[0]] // the order given is kept
    case 'texts':
      return ['Andalusian Terrier, Sherry Terrier', 'x'.repeat(field.maxLength)]
    case 'switch':
      return true
    case 'tristate':
      return false // the answer that narrows and is easiest to lose: no
    case 'moment':
      return field.after ? '2026-11-01T12:30:00+02:00' : '2026-10-01'
    case 'number':
      return field.max
  }
}

/** A value of the right type that the field refuses. */
function wrongOf(field: SegmentField): unknown {
  switch (field.kind) {
    case 'choice':
    case 'codes':
      return ['nope']
    case 'texts':
      return [' padded']
    case 'switch':
    case 'tristate':
      return 'maybe'
    case 'moment':
      return 'yesterday'
    case 'number':
      return field.max + 1
  }
}

const sample = (name: SegmentFieldName) => ({ [name]: sampleOf(SEGMENT[name]) }) as Segment
/** Every field set at once. */
const EVERY = Object.assign({}, ...SEGMENT_FIELDS.map(sample)) as Segment

/** The flags that give a segment on the command line. */
function argsOf(segment: Segment): string[] {
  return SEGMENT_FIELDS.flatMap((name) => {
    const value: unknown = segment[name]
    const flag = `--${SEGMENT[name].flag}`
    if (SEGMENT[name].kind === 'tristate' && typeof value === 'boolean') return [flag, value ? 'yes' : 'no']
    if (value === undefined || value === false) return []
    if (value === true) return [flag]
    return (Array.isArray(value) ? value : [value]).flatMap((item) => [flag, String(item)])
  })
}

const decode = (html: string) =>
  html
    .replace(/&#x27;/g, "'")
    .replace(/&quot;/g, '"')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&amp;/g, '&')

/** What a browser submits for the composer's controls as rendered: ticked boxes and radio buttons, typed boxes. */
function submitted(html: string): FormData {
  const form = new FormData()
  const attributes = (tag: string) =>
    Object.fromEntries([...tag.matchAll(/([\w-]+)="([^"]*)"/g)].map(([, key, value]) => [key, decode(value ?? '')]))
  for (const [tag] of html.matchAll(/<input [^>]*>/g)) {
    const input = attributes(tag)
    if (!input.name) continue
    if (input.type === 'checkbox' || input.type === 'radio') {
      if ('checked' in input) form.append(input.name, input.value ?? 'on')
    } else form.append(input.name, input.value ?? '')
  }
  for (const [, tag = '', body = ''] of html.matchAll(/<textarea ([^>]*)>([\s\S]*?)<\/textarea>/g)) {
    const name = attributes(tag).name
    if (name) form.append(name, decode(body))
  }
  return form
}

describe('the segment definition', () => {
  it('gives each field its words, a flag of its own, labels for every choice and a moment to come after', () => {
    const flags = SEGMENT_FIELDS.map((name) => SEGMENT[name].flag)
    expect(new Set(flags).size).toBe(flags.length)
    for (const name of SEGMENT_FIELDS) {
      const field: SegmentField = SEGMENT[name]
      expect(field.help, name).toMatch(/^[a-z].*[^.]$/)
      // The composer's words, in every language: a label, a hint, and each choice's or answer's words.
      for (const locale of LOCALES) {
        const words = adminContentFor(locale).campaigns
        expect(words[name], `${locale}: ${name}`).not.toBe('')
        expect(words.hint(name), `${locale}: ${name}`).toMatch(/\S/)
        const answers = field.kind === 'choice' ? field.of : field.kind === 'tristate' ? TRISTATE_ANSWERS : []
        for (const answer of answers) expect(words.option(name, answer), `${locale}: ${name} ${answer}`).not.toBe(answer)
      }
      if (field.kind === 'moment' && field.after) expect((SEGMENT as Record<string, SegmentField>)[field.after]?.kind, name).toBe('moment')
    }
  })

  it("writes a segment one way: choices in order, each once, nothing empty or off; a tristate's no kept", () => {
    expect(
      tidySegment({ roles: ['owner', 'breeder', 'owner'], countries: ['PL', 'GB', 'PL'], sides: [], readyBreeds: false, claimed: false }),
    ).toEqual({
      roles: ['breeder', 'owner'],
      countries: ['PL', 'GB'],
      claimed: false,
    })
    expect(tidySegment(EVERY)).toEqual(EVERY)
  })

  it('refuses an end before its start and a date no calendar has, a breed name with nothing to match, naming the field as asked', () => {
    const named = (name: SegmentFieldName) => `segment/${name}`
    expect(segmentProblems({ since: '2026-12-01', until: '2026-11-01' }, named)).toEqual(['segment/until: must come after segment/since'])
    expect(segmentProblems({ since: '2026-13-45' }, named)).toEqual(['segment/since: not a date there is, got "2026-13-45"'])
    expect(segmentProblems({ breeds: ['Whippet', '!!!'] }, named)).toEqual([
      'segment/breeds: "!!!" has no letters or digits, so it names no breed',
    ])
    expect(segmentProblems(EVERY, named)).toEqual([])
  })
})

describe.each(SEGMENT_FIELDS)('segment field %s', (name) => {
  const field: SegmentField = SEGMENT[name]

  it('is taken by the API, and a wrong value is refused naming it', async () => {
    const app = Fastify({ logger: false, ajv: { customOptions: { removeAdditional: false } } })
    app.post('/', { schema: { body: segmentSchema } }, async (request) => request.body)
    const post = (payload: unknown) => app.inject({ method: 'POST', url: '/', payload: payload as object })
    const taken = await post(sample(name))
    expect(taken.statusCode, taken.body).toBe(200)
    expect(taken.json()).toEqual(sample(name))
    const refused = await post({ [name]: wrongOf(field) })
    expect(refused.statusCode).toBe(400)
    expect(refused.json<{ message: string }>().message).toContain(`/${name}`)
    await app.close()
  })

  it('has a control in the composer, drawn from the draft and read back the same', () => {
    const html = renderToStaticMarkup(<SegmentFields segment={sample(name)} />)
    expect(html).toContain(`name="${name}"`)
    expect(decode(html)).toContain(adminContent.campaigns[name])
    expect(segmentOfForm(submitted(html))).toEqual(sample(name))
    // An empty composer narrows nothing.
    expect(segmentOfForm(submitted(renderToStaticMarkup(<SegmentFields segment={undefined} />)))).toEqual({})
  })

  it('has a flag on the command line, read back the same, a wrong value refused naming it, and a line in --help', () => {
    expect(segmentFlags).toHaveProperty(field.flag)
    const { values } = parseArgs({ args: argsOf(sample(name)), options: segmentFlags, strict: true })
    expect(segmentOfOptions(values)).toEqual(sample(name))
    if (field.kind !== 'switch') {
      const wrong = wrongOf(field)
      const { values: bad } = parseArgs({ args: argsOf({ [name]: Array.isArray(wrong) ? wrong : String(wrong) }), options: segmentFlags })
      expect(() => segmentOfOptions(bad)).toThrow(UsageError)
      expect(() => segmentOfOptions(bad)).toThrow(new RegExp(`^--${field.flag}: `))
    }
    expect(segmentHelp()).toMatch(new RegExp(`^  --${field.flag}\\b.*\\S`, 'm'))
    expect(adminContent.campaigns[name]).not.toBe('')
  })
})

describe('a segment with every field', () => {
  it('goes through the composer and the command line unchanged', () => {
    expect(segmentOfForm(submitted(renderToStaticMarkup(<SegmentFields segment={EVERY} />)))).toEqual(EVERY)
    expect(segmentOfOptions(parseArgs({ args: argsOf(EVERY), options: segmentFlags, strict: true }).values)).toEqual(EVERY)
  })

  it('is listed in --help within 100 columns, no list broken across lines', () => {
    const lines = segmentHelp().split('\n')
    expect(lines.filter((line) => line.length > 100 || /,\s*$/.test(line))).toEqual([])
  })
})
