// Who a campaign goes to: the only list of what a segment can say. Each entry is one field: its
// kind, the values and limits it takes, its words and its command-line flag. The admin API's
// schema, the composer's controls and the CLI's options and --help are all made from it, so a field
// is added here, once. Types, constants and pure checks; this folder imports nothing but itself.
import { PLATFORMS } from './app.js'
import { SEGMENT_SIDES } from './breed-meters.js'
import { breedKey } from './breeds.js'
import { COUNTRY_CODES } from './countries.js'
import { LOCALES } from './locales.js'
import { MAX_BREED_LENGTH, ROLES } from './visitor.js'
import { MAX_ATTRIBUTION_LENGTH } from './waitlist.js'

/**
 * What every field says of itself to the command line (English, stable for scripts). The composer's
 * words, in the operator's language, are the admin catalogue's (`campaigns.fields.<name>`).
 */
interface FieldWords {
  /** What the field selects, for the CLI's --help: lower case, no full stop. */
  help: string
  /** The CLI's option, without its dashes: a list's flag is given once per value. */
  flag: string
}

/** Any of a short list, each value a tick box in the composer. */
export interface ChoiceField<V extends string = string> extends FieldWords {
  kind: 'choice'
  of: readonly V[]
}

/** Codes of a long list (countries), typed. */
export interface CodesField<V extends string = string> extends FieldWords {
  kind: 'codes'
  of: readonly V[]
  /** What the codes are, and one of them, for the hints: "ISO 3166-1 code", "GB". */
  codeName: string
  example: V
}

/** Free texts, each matched as the store reads it. */
export interface TextsField extends FieldWords {
  kind: 'texts'
  maxItems: number
  maxLength: number
  /**
   * What each text names, when it is matched by its key (contract/breeds.ts): a text with no letters
   * or digits has an empty key, names nothing, and is refused.
   */
  names?: string
}

/** On or off; off narrows nothing. */
export interface SwitchField extends FieldWords {
  kind: 'switch'
}

/**
 * Yes, no, or either: something a sign-up has or has not. Absent is either and narrows nothing; the
 * API takes true or false, the command line yes or no, and the composer offers all three.
 */
export interface TristateField extends FieldWords {
  kind: 'tristate'
}

/** A tristate field's answers; `either` is the field left out. */
export const TRISTATE_ANSWERS = ['either', 'yes', 'no'] as const
export type TristateAnswer = (typeof TRISTATE_ANSWERS)[number]
/** What the command line takes for a tristate field: either is the flag left out. */
export const TRISTATE_FLAG_VALUES = ['yes', 'no'] as const

/** A date, or a date and time with its zone. */
export interface MomentField extends FieldWords {
  kind: 'moment'
  /** The moment field this one must come after when both are given. */
  after?: string
}

/** A whole number. */
export interface NumberField extends FieldWords {
  kind: 'number'
  min: number
  max: number
}

export type SegmentField = ChoiceField | CodesField | TextsField | SwitchField | TristateField | MomentField | NumberField
export type SegmentKind = SegmentField['kind']

export const SEGMENT = {
  roles: {
    kind: 'choice',
    of: ROLES,
    help: 'who they said they are',
    flag: 'role',
  },
  countries: {
    kind: 'codes',
    of: COUNTRY_CODES,
    codeName: 'ISO 3166-1 code',
    example: 'GB',
    help: 'where they said they live',
    flag: 'country',
  },
  breeds: {
    kind: 'texts',
    maxItems: 100,
    maxLength: MAX_BREED_LENGTH,
    names: 'breed',
    help: 'breeds they named: catalogue ids (labrador-retriever), names in any language, or names an editor mapped to a breed (each selects that breed); a name neither knows matches as typed',
    flag: 'breed',
  },
  sides: {
    kind: 'choice',
    of: SEGMENT_SIDES,
    help: 'whether they bring a stud or a dam, or look for a puppy (of the breeds named, if any); a breeder of both counts as each',
    flag: 'side',
  },
  readyBreeds: {
    kind: 'switch',
    help: 'only those with a breed whose meter in their country is full (studs and dams at target) when counted or sent',
    flag: 'ready-breeds',
  },
  since: {
    kind: 'moment',
    help: 'signed up at or after this moment',
    flag: 'since',
  },
  until: {
    kind: 'moment',
    after: 'since',
    help: 'signed up before this moment',
    flag: 'until',
  },
  sources: {
    kind: 'texts',
    maxItems: 100,
    maxLength: MAX_ATTRIBUTION_LENGTH,
    help: 'where they came from: utm_source, else the referring site',
    flag: 'source',
  },
  includeUnconfirmed: {
    kind: 'switch',
    help: 'addresses not yet confirmed as well (confirmed only otherwise; stopped e-mails never)',
    flag: 'include-unconfirmed',
  },
  invitedAtLeast: {
    kind: 'number',
    min: 0,
    max: 1_000_000,
    help: 'whose invite links brought at least this many confirmed sign-ups',
    flag: 'invited-at-least',
  },
  readyCountries: {
    kind: 'switch',
    help: 'only those in countries whose launch meter is full (both targets met) when counted or sent',
    flag: 'ready-countries',
  },
  platforms: {
    kind: 'choice',
    of: PLATFORMS,
    help: 'the phone their sign-up came from or they said they use; other takes those whose phone is not known too',
    flag: 'platform',
  },
  claimed: {
    kind: 'tristate',
    help: 'whether the app has taken their profile already, or not yet',
    flag: 'claimed',
  },
  partners: {
    kind: 'texts',
    maxItems: 100,
    maxLength: 100,
    help: 'the partners they first joined through (clubs and kennels whose sites carry the form) by their numbers in the Partners view',
    flag: 'partner',
  },
  locales: {
    kind: 'choice',
    of: LOCALES,
    help: 'the language their mails are in',
    flag: 'locale',
  },
  imported: {
    kind: 'switch',
    // contract/imports.ts: imported people never asked to join themselves.
    help: 'only people an import brought in whether they confirmed since or not (without this those who never confirmed are never mailed)',
    flag: 'imported',
  },
} as const satisfies Record<string, SegmentField>

export type SegmentFieldName = keyof typeof SEGMENT
/** The fields in the definition's order. */
export const SEGMENT_FIELDS = Object.keys(SEGMENT) as SegmentFieldName[]
/** The fields of one kind. */
export type SegmentFieldOf<K extends SegmentKind> = {
  [F in SegmentFieldName]: (typeof SEGMENT)[F]['kind'] extends K ? F : never
}[SegmentFieldName]

/** What a field of each kind holds. */
type ValueOf<F> = F extends { kind: 'choice' | 'codes'; of: readonly (infer V)[] }
  ? V[]
  : F extends { kind: 'texts' }
    ? string[]
    : F extends { kind: 'switch' | 'tristate' }
      ? boolean
      : F extends { kind: 'moment' }
        ? string
        : F extends { kind: 'number' }
          ? number
          : never

/**
 * Who a campaign goes to: every field narrows; absent ones (and empty lists, switches off) do not.
 * A tristate field narrows when true and when false.
 */
export type Segment = { [F in SegmentFieldName]?: ValueOf<(typeof SEGMENT)[F]> }

/** A date, or a date and time with its zone: what a moment takes (a JSON schema's and an input's pattern). */
export const MOMENT_PATTERN = '^\\d{4}-\\d{2}-\\d{2}(T\\d{2}:\\d{2}(:\\d{2}(\\.\\d{1,3})?)?(Z|[+\\-]\\d{2}:\\d{2}))?$'
/**
 * A free text: no space at either end and no line break, so it reads back the same wherever it is
 * shown (the composer puts one per line) and means what it looks like.
 */
export const TEXT_PATTERN = '^\\S(.*\\S)?$'

/** "stud, dam or seeker" */
const orList = (values: readonly string[]): string =>
  values.length < 2 ? values.join('') : `${values.slice(0, -1).join(', ')} or ${values.at(-1)}`

/** What a field takes, in a few words: what a refusal says was expected. */
export function expectedOf(field: SegmentField): string {
  switch (field.kind) {
    case 'choice':
      return orList(field.of)
    case 'codes':
      return `an ${field.codeName} such as ${field.example}`
    case 'texts':
      return `1 to ${field.maxLength} characters, no space at either end`
    case 'moment':
      return 'a date such as 2026-11-01, or a moment with its zone such as 2026-11-01T12:00:00Z'
    case 'number':
      return `a whole number from ${field.min.toLocaleString('en')} to ${field.max.toLocaleString('en')}`
    case 'switch':
      return 'on or off'
    case 'tristate':
      return orList(TRISTATE_FLAG_VALUES)
  }
}

/** Whether one value of a field, as typed (the CLI's), is one the field takes. */
export function isItemOf(field: SegmentField, value: string): boolean {
  switch (field.kind) {
    case 'choice':
    case 'codes':
      return (field.of as readonly string[]).includes(value)
    case 'texts':
      return value.length <= field.maxLength && new RegExp(TEXT_PATTERN).test(value)
    case 'moment':
      return new RegExp(MOMENT_PATTERN).test(value) && !Number.isNaN(Date.parse(value))
    case 'number':
      return /^\d{1,16}$/.test(value) && Number(value) >= field.min && Number(value) <= field.max
    case 'tristate':
      return (TRISTATE_FLAG_VALUES as readonly string[]).includes(value)
    case 'switch':
      return true
  }
}

/**
 * What a segment that has the right shape may still get wrong, each problem with the field named as
 * the caller names it (`segment/until`, `--until`): a moment no calendar has, an end before its start,
 * a name with nothing in it to match.
 */
export function segmentProblems(segment: Segment, name: (field: SegmentFieldName) => string): string[] {
  const problems: string[] = []
  for (const field of SEGMENT_FIELDS) {
    const entry: SegmentField = SEGMENT[field]
    const value = segment[field]
    if (entry.kind === 'texts' && entry.names && Array.isArray(value))
      for (const text of value as string[])
        if (breedKey(text) === '') problems.push(`${name(field)}: "${text}" has no letters or digits, so it names no ${entry.names}`)
    if (entry.kind !== 'moment' || typeof value !== 'string') continue
    if (Number.isNaN(Date.parse(value))) problems.push(`${name(field)}: not a date there is, got "${value}"`)
    const after = SEGMENT_FIELDS.find((other) => other === entry.after)
    const start = after === undefined ? undefined : segment[after]
    if (after && typeof start === 'string' && Date.parse(value) <= Date.parse(start))
      problems.push(`${name(field)}: must come after ${name(after)}`)
  }
  return problems
}

/**
 * The same segment written one way: choices in the definition's order, each value once, empty lists
 * and switches that are off left out (a tristate's false is kept: it narrows). Whoever saves a
 * segment saves it tidy, so one opened and saved again reads back as it was.
 */
export function tidySegment(segment: Segment): Segment {
  const tidy: Record<string, unknown> = {}
  for (const field of SEGMENT_FIELDS) {
    const entry: SegmentField = SEGMENT[field]
    const value: unknown = segment[field]
    if (value === undefined) continue
    if (Array.isArray(value)) {
      const once = [...new Set(value as string[])]
      if (entry.kind === 'choice') {
        const of: readonly string[] = entry.of
        const rank = (item: string) => (of.includes(item) ? of.indexOf(item) : of.length)
        once.sort((a, b) => rank(a) - rank(b))
      }
      if (once.length > 0) tidy[field] = once
    } else if (value !== false || entry.kind === 'tristate') tidy[field] = value
  }
  return tidy as Segment
}
