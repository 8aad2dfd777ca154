// Derived counts (docs/decisions/021-tallies.md): every one is a row of `tallies` (kind, key, field,
// n), kept by the triggers of db/<dialect>/014 as the rows they count change. What both dialects
// share: the kinds, and the rows turned into records.

/** What is counted, and by what key (each kind's fields are in db/<dialect>/014). */
export type TallyKind =
  /** Confirmed, subscribed profiles per `breed|country` ('' when not said): studs, dams, seekers, profiles. */
  | 'breed'
  /** Mails in each state now, per campaign id ('' for other mails): queued, sending, sent, failed, bounced. */
  | 'outbox'
  /** What became of every mail (key ''), per campaign id, per recipient domain: sent, refused, hard, soft, complained, unsubscribed. */
  | 'mail'
  | 'mail-campaign'
  | 'mail-domain'
  /** Per UTC day (YYYY-MM-DD): sent, complaints. */
  | 'mail-day'
  /** Bounces and complaints tied to no mail (key ''): hard, soft, complained. */
  | 'mail-unattributed'
  /** Into the app (db/<dialect>/015): every sign-up (key ''), per country ('' none said), per `breed|country`: invited, opened, claimed. */
  | 'app'
  | 'app-country'
  | 'app-breed'
  /** Every sign-up (db/<dialect>/017) by `role|country|locale|platform|standing` ('' not said), field n. */
  | 'people'
  /** Sign-ups per UTC day (YYYY-MM-DD), per source (utm_source, else the referring host, '' none), field signups. */
  | 'signups-day'
  | 'signups-source'
  /** Per partner's id (db/<dialect>/018): signups (everyone who first joined through it), confirmed. */
  | 'partner'

export interface TallyRow {
  kind: TallyKind
  key: string
  field: string
  n: number
}

/** What a dialect's tallies answer: every key's fields of some kinds (or some keys'), read in one snapshot. */
export interface Tallies {
  read(kinds: readonly TallyKind[], keys?: readonly string[]): Promise<TallyRow[]>
}

/** The rows of one kind. */
export const ofKind = (rows: readonly TallyRow[], kind: TallyKind) => rows.filter((row) => row.kind === kind)

/** The rows of a kind as one record per key, each field a number (absent fields 0 where `fields` names them). */
export function byKey<F extends string>(rows: readonly TallyRow[], fields: readonly F[]): Map<string, Record<F, number>> {
  const records = new Map<string, Record<F, number>>()
  for (const row of rows) {
    let record = records.get(row.key)
    if (!record) records.set(row.key, (record = Object.fromEntries(fields.map((field) => [field, 0])) as Record<F, number>))
    if ((fields as readonly string[]).includes(row.field)) record[row.field as F] += Number(row.n)
  }
  return records
}

/** One key's fields (0 where none is counted). */
export const recordOf = <F extends string>(rows: readonly TallyRow[], fields: readonly F[]): Record<F, number> =>
  [...byKey(rows, fields).values()].reduce(
    (sum, record) => {
      for (const field of fields) sum[field] += record[field]
      return sum
    },
    Object.fromEntries(fields.map((field) => [field, 0])) as Record<F, number>,
  )
