// Every word of the admin page, in the operator's language (docs/decisions/027-the-back-office-in-six-languages.md):
// the catalogue's (locales/admin/<language>.json), read as they are where a word is a word, and
// through a message with its values (a number with its noun in the language's plural form, a
// date as the language writes it) where a word needs them. Views read `adminContent`, which
// main.tsx sets from the operator's catalogue before any view's module runs.
import type { MailState } from '../../contract/admin-api'
import type { HandOffStep, Platform } from '../../contract/app'
import type { BreedTarget, SegmentSide } from '../../contract/breed-meters'
import { type FunnelDay, signupsPerVisit } from '../../contract/growth'
import type { Locale } from '../../contract/locales'
import type { ImportExisting, ImportMode, ImportReason, ImportStatusName } from '../../contract/imports'
import type { MailEventType, SuppressionReason } from '../../contract/mail-events'
import type { DeliveryFigures, QueueFigures } from '../../contract/mail-figures'
import { SEGMENT_FIELDS, type SegmentFieldName, type TristateAnswer } from '../../contract/segment'
import type { AuditAction, OperatorRole, TokenRole } from '../../contract/team'
import { disabledReasonWords, type WebhookDisabledReason } from '../../contract/webhooks'
import type { Role } from '../../contract/visitor'
import type { Words } from './words'

/** The funnel's steps, in its order. */
const FUNNEL_STAGES = ['visitors', 'signups', 'confirmed', 'profiled', 'inviters'] as const satisfies readonly (keyof FunnelDay)[]
const HAND_OFF_STAGES = ['invited', 'opened', 'claimed'] as const satisfies readonly HandOffStep[]

export function adminContentIn(words: Words) {
  const { t, catalogue: c, number } = words
  // Each record keyed by a type's values is checked against it here: a value without its word fails the build.
  const figures: Record<keyof DeliveryFigures, string> = c.figures
  const roles: Record<Role, string> = c.roles
  const operatorRoles: Record<OperatorRole, string> = c.team.roles
  const tokenRoles: Record<TokenRole, string> = c.team.tokenRoles
  const mailEvents: Record<MailEventType, string> = c.status.mailEvent
  const queueStates: Record<keyof QueueFigures, string> = c.mail.states
  const platforms: Record<Platform, string> = c.demand.platforms
  const sides: Record<SegmentSide | '', string> = { ...c.breeds.sides, '': c.breeds.sides.any }
  const reasons: Record<SuppressionReason, string> = c.deliverability.reasons
  const actions: Record<AuditAction, string> = c.audit.actions
  const importModes: Record<ImportMode, string> = c.imports.modes
  const importExisting: Record<ImportExisting, string> = c.imports.existingChoices
  const importStatuses: Record<ImportStatusName, string> = c.imports.statuses
  const importReasons: Record<ImportReason, string> = c.imports.reasons
  const refusals = c.refusals
  const list = (items: readonly string[]) => new Intl.ListFormat(words.locale).format(items)
  const fields = c.campaigns.fields
  /** Each segment field's label, by its name. */
  const segmentLabels = Object.fromEntries(SEGMENT_FIELDS.map((name) => [name, fields[name].label])) as Record<SegmentFieldName, string>
  const sendLink = c.signIn.sendLink

  return {
    ...c,
    locale: words.locale,
    /**
     * Why the server refused a change, in the operator's language where the refusal has a word of
     * its own; otherwise the server's sentence (English, naming the API's field), said to be so.
     */
    refusal: ({ code, detail }: { code: string | null; detail: string }): string => {
      const own =
        code !== null && code !== 'other' && Object.hasOwn(refusals, code) ? (refusals as Record<string, string>)[code] : undefined
      return own ?? (detail && t('refusals.other', { detail }))
    },
    figures,
    roles,
    signedInAs: (email: string, role: OperatorRole) => t('signedInAs', { email, role: c.team.roleNames[role] }),
    setup: {
      ...c.setup,
      heading: (purpose: 'setup' | 'invite') => (purpose === 'setup' ? c.setup.headingSetup : c.setup.headingInvite),
      intro: (role: OperatorRole) => t('setup.intro', { role: c.setup.roleWithArticle[role] }),
      insecure: {
        ...c.setup.insecure,
        reason: (origin: string) => t('setup.insecure.reason', { origin }),
        firstOwner: (localLink: string) => t('setup.insecure.firstOwner', { localLink, sendLink }),
      },
    },
    team: {
      ...c.team,
      roles: operatorRoles,
      tokenRoles,
      passkeyCount: (n: number) => t('team.passkeyCount', { count: n }),
      roleOf: (email: string) => t('team.roleOf', { email }),
      disableLabel: (email: string) => t('team.disableLabel', { email }),
      enableLabel: (email: string) => t('team.enableLabel', { email }),
      confirmDisable: (email: string) => t('team.confirmDisable', { email }),
      invited: (email: string) => t('team.invited', { email }),
      revokeInvitationLabel: (email: string) => t('team.revokeInvitationLabel', { email }),
      confirmRevokeInvitation: (email: string) => t('team.confirmRevokeInvitation', { email }),
      invitationRevoked: (email: string) => t('team.invitationRevoked', { email }),
      revokeLabel: (name: string) => t('team.revokeLabel', { name }),
      confirmRevoke: (name: string) => t('team.confirmRevoke', { name }),
    },
    webhooks: {
      ...c.webhooks,
      rotated: (until: string) => t('webhooks.rotated', { until: words.dateTime(until) }),
      confirmRemove: (url: string) => t('webhooks.confirmRemove', { url }),
      logCaption: (url: string) => t('webhooks.logCaption', { url }),
      resendLabel: (event: string, at: string) => t('webhooks.resendLabel', { event, at }),
      resent: (n: number) => t('webhooks.resent', { count: n }),
      disabledReason: (reason: WebhookDisabledReason) => disabledReasonWords(t, reason),
    },
    audit: { ...c.audit, actions, action: (action: string) => (actions as Record<string, string>)[action] ?? action },
    account: {
      ...c.account,
      removeLabel: (name: string) => t('account.removeLabel', { name }),
      confirmRemove: (name: string) => t('account.confirmRemove', { name }),
    },
    /** A sign-up that came through another's invite link: whose. */
    invitedBy: (email: string) => t('invitedBy', { email }),
    /** A sign-up an import brought in: on what basis, and when (it never confirmed unless its status says so). */
    importedOn: (basis: string, at: string) => t('importedOn', { basis, at: words.dateTime(at) }),
    partners: {
      ...c.partners,
      counts: (signups: number, confirmed: number) => t('partners.counts', { count: signups, confirmed: number(confirmed) }),
      meterOf: (breed: string | null, country: string | null) =>
        country === null
          ? c.partners.noMeter
          : breed === null
            ? t('partners.meterCountry', { country: words.country(country) })
            : t('partners.meterBreed', { breed, country: words.country(country) }),
      key: (name: string) => t('partners.key', { name }),
      confirmRotate: (name: string) => t('partners.confirmRotate', { name }),
      rotated: (name: string) => t('partners.rotated', { name }),
      countriesCaption: (name: string) => t('partners.countriesCaption', { name }),
      breedsCaption: (name: string) => t('partners.breedsCaption', { name }),
      added: (name: string) => t('partners.added', { name }),
    },
    imports: {
      ...c.imports,
      modes: importModes,
      existingChoices: importExisting,
      statuses: importStatuses,
      reasons: importReasons,
      previewCaption: (rows: number) => t('imports.previewCaption', { count: rows }),
      found: (columns: string[]) => t('imports.found', { columns: list(columns) }),
      ignored: (columns: string[]) => (columns.length === 0 ? c.imports.ignoredNone : t('imports.ignored', { columns: list(columns) })),
      delimiter: (delimiter: string) => t('imports.delimiter', { delimiter }),
      progressLabel: (id: number) => t('imports.progressLabel', { id }),
      progress: (processed: number, percent: number) =>
        t('imports.progress', { processed: number(processed), percent: words.percent(percent, 100) ?? '' }),
      counts: (status: { added: number; filled: number; skipped: number; failed: number; mode: ImportMode }) =>
        t(status.mode === 'suppress' ? 'imports.countsSuppressed' : 'imports.countsAdded', {
          added: number(status.added),
          filled: number(status.filled),
          skipped: number(status.skipped),
          failed: number(status.failed),
        }),
      name: (status: { id: number; label: string | null }) => status.label ?? t('imports.name', { id: status.id }),
      rows: (rows: number | null) => (rows === null ? '' : t('imports.rows', { count: rows })),
      started: (id: number) => t('imports.started', { id }),
      composerBasis: (label: string | null, id: number, basis: string, added: number) =>
        t('imports.composerBasis', { name: label ?? t('imports.name', { id }), added: number(added), basis }),
    },
    status: { ...c.status, mail: (state: MailState) => t('status.mail', { state: c.status.mailStates[state] }), mailEvent: mailEvents },
    /** A language as the team reads it, with its own name beside where that differs: "German (Deutsch)". */
    language: (locale: Locale) => {
      const read = words.language(locale)
      const own = new Intl.DisplayNames([locale], { type: 'language' }).of(locale) ?? locale
      return locale === words.locale ? read : `${read} (${own})`
    },
    mail: { ...c.mail, states: queueStates, previewLabel: (subject: string) => t('mail.previewLabel', { subject }) },
    removeLabel: (email: string) => t('removeLabel', { email }),
    confirmRemove: (email: string) => t('confirmRemove', { email }),
    /** How fresh the figures only the rows can answer are (contract/campaigns.ts, Segments.countedAt). */
    countedAt: (iso: string, what: keyof typeof c.countedAt) => t(`countedAt.${what}`, { time: words.time(iso) }),
    demand: {
      ...c.demand,
      platforms,
      /** `breed`: the name of the breed the map is filtered to. */
      totals: (total: number, confirmed: number, unsubscribed: number, breed?: string) =>
        t(breed ? 'demand.totalsOfBreed' : 'demand.totals', {
          count: total,
          confirmed: number(confirmed),
          unsubscribed: number(unsubscribed),
          breed: breed ?? '',
        }),
      /** Beside who waits: those the app has taken (they wait no more). */
      claimed: (claimed: number) => (claimed === 0 ? c.demand.claimedNone : t('demand.claimed', { count: claimed })),
      /** Those an import brought in who never confirmed: counted apart from those who joined themselves. */
      imported: ({ total, byCountry }: { total: number; byCountry: { country: string | null; total: number }[] }) =>
        t('demand.imported', {
          count: total,
          countries: list(
            byCountry
              .slice(0, 10)
              .map((c2) => t('demand.importedCountry', { country: c2.country ?? c.demand.importedNoCountry, total: number(c2.total) })),
          ),
        }),
    },
    launch: {
      ...c.launch,
      of: (have: number, want: number) => t('launch.of', { have: number(have), want: number(want) }),
      belowPublic: (min: number) => t('launch.belowPublic', { min: number(min) }),
      removeCountry: (code: string) => (code ? t('launch.removeCountry', { code }) : c.launch.removeRow),
      /** An inviter for a role that may not see addresses. */
      inviterById: (id: number) => t('launch.inviterById', { id }),
    },
    breeds: {
      ...c.breeds,
      sides,
      counted: (at: string) => t('breeds.counted', { at: words.dateTime(at) }),
      /** Where a country is a code: its name in the operator's language, with the code beside. */
      place: (name: string, code: string) => t('breeds.place', { name, code }),
      target: (target: BreedTarget) => t('breeds.target', { studs: number(target.studs), dams: number(target.dams) }),
      ownTargets: (n: number) => t('breeds.ownTargets', { count: n }),
      belowPublic: (min: number) => t('breeds.belowPublic', { min: number(min) }),
      typed: (n: number) => t('breeds.typed', { count: n }),
      breedFor: (name: string) => t('breeds.breedFor', { name }),
      /** The names the Map field offers as one types: a name in another language says the breed's name in the operator's. */
      breedOffered: (name: string, known: string) => (name === known ? name : t('breeds.breedOffered', { name, known })),
      mapLabel: (name: string) => t('breeds.mapLabel', { name }),
      mapped: (name: string, breed: string, signups: number) => t('breeds.mapped', { name, breed, count: signups }),
      grid: {
        ...c.breeds.grid,
        /** A cell's figures in words: what a screen reader reads, and a hover or a focus shows. */
        cell: ({
          ready,
          ...values
        }: Record<'breed' | 'country' | 'studs' | 'studsTarget' | 'dams' | 'damsTarget', string> & { ready: boolean }) =>
          t(ready ? 'breeds.grid.cellReady' : 'breeds.grid.cell', values),
        /** What the picture leaves out: only the cut side is named (its number is the picture's cap). */
        more: (cut: { breeds: number | null; countries: number | null }) =>
          cut.breeds !== null && cut.countries !== null
            ? t('breeds.grid.more', { breeds: number(cut.breeds), countries: number(cut.countries) })
            : cut.breeds !== null
              ? t('breeds.grid.moreBreeds', { breeds: number(cut.breeds) })
              : t('breeds.grid.moreCountries', { countries: number(cut.countries ?? 0) }),
        details: (values: { breed: string; country: string }) => t('breeds.grid.details', values),
        of: (values: { have: string; want: string }) => t('breeds.grid.of', values),
      },
    },
    funnel: {
      ...c.funnel,
      /** Said under a breed filter: a page view has no breed. */
      breedNote: (breed: string) => t('funnel.breedNote', { breed }),
      stages: FUNNEL_STAGES.map((stage) => [stage, c.funnel.stages[stage]] as const),
      /** A share of a whole: of sign-ups in the funnel, of the step before into the app. */
      rate: (part: number, whole: number) => words.percent(part, whole) ?? '–',
      /** A partner's sign-ups, named by the partner (they came through its embed, so no view of ours counts them). */
      partnerSource: (name: string) => t('funnel.partnerSource', { name }),
      /** Sign-ups per visit, in the tables (contract/growth.ts). */
      perVisit: (signups: number, visitors: number) => signupsPerVisit(signups, visitors, words.locale) ?? '–',
      /** The same beside the chart's sign-ups. */
      perVisitNote: (signups: number, visitors: number) => {
        const rate = signupsPerVisit(signups, visitors, words.locale)
        return rate === null ? '' : t('funnel.perVisitNote', { rate })
      },
      handOff: { ...c.funnel.handOff, stages: HAND_OFF_STAGES.map((stage) => [stage, c.funnel.handOff.stages[stage]] as const) },
    },
    campaigns: {
      ...c.campaigns,
      // Each field's label by its name (the composer's control, the draft's unshown fields).
      ...segmentLabels,
      languageSubject: (language: string) => t('campaigns.languageSubject', { language }),
      languageMarkdown: (language: string) => t('campaigns.languageMarkdown', { language }),
      /** A choice's or a tristate's answer: a tick box's or a radio button's words. */
      option: (field: SegmentFieldName, value: string): string =>
        (fields[field] as { options?: Record<string, string> }).options?.[value] ?? value,
      tristate: (field: SegmentFieldName, answer: TristateAnswer): string =>
        (fields[field] as { options?: Record<string, string> }).options?.[answer] ?? answer,
      /** Under a field: what it selects, and how to fill it in. */
      hint: (field: SegmentFieldName): string => fields[field].hint,
      /** An opened draft whose segment the form cannot show whole (saved before the form could). */
      unshown: (labels: string[]) => t('campaigns.unshown', { labels: new Intl.ListFormat(words.locale).format(labels) }),
      recipients: (n: number) => t('campaigns.recipients', { count: n }),
      send: (n: number) => t('campaigns.send', { count: n }),
      confirmSend: (n: number, subject: string) => t('campaigns.confirmSend', { count: n, subject }),
      progressLabel: (subject: string) => t('campaigns.progressLabel', { subject }),
      progress: (sent: number, recipients: number) => t('campaigns.progress', { sent: number(sent), recipients: number(recipients) }),
      counts: (queued: number, failed: number, delivery: DeliveryFigures) =>
        t('campaigns.counts', {
          queued: number(queued),
          failed: number(failed),
          delivered: number(delivery.delivered),
          hard: number(delivery.hardBounced),
          soft: number(delivery.softBounced),
          complained: number(delivery.complained),
        }),
      openLabel: (subject: string) => t('campaigns.openLabel', { subject }),
      deleteLabel: (subject: string) => t('campaigns.deleteLabel', { subject }),
      confirmDelete: (subject: string) => t('campaigns.confirmDelete', { subject }),
      editing: (id: number) => t('campaigns.editing', { id }),
    },
    deliverability: {
      ...c.deliverability,
      reasons,
      columns: {
        ...c.deliverability.columns,
        sent: figures.sent,
        delivered: figures.delivered,
        hard: figures.hardBounced,
        soft: figures.softBounced,
        complained: figures.complained,
        unsubscribed: figures.unsubscribed,
      },
      rateIntro: (days: number) => t('deliverability.rateIntro', { days: number(days) }),
      rate: (rate: string) => t('deliverability.rate', { rate }),
      line: (limit: string) => t('deliverability.line', { limit }),
      above: (limit: string) => t('deliverability.above', { limit }),
      below: (limit: string) => t('deliverability.below', { limit }),
      rateFigures: (complaints: number, sent: number) =>
        t('deliverability.complaintsAgainst', { count: complaints, sent: t('deliverability.mailsAccepted', { count: sent }) }),
      unattributed: (hard: number, soft: number, complaints: number) =>
        t('deliverability.unattributed', { hard: number(hard), soft: number(soft), complaints: number(complaints) }),
      counted: (at: string) => t('deliverability.counted', { at: words.dateTime(at) }),
      /** A figure's share of the mails sent, said under it. */
      share: (part: number, whole: number) => words.percent(part, whole) ?? '',
      otherDomains: (n: number) => t('deliverability.otherDomains', { count: n }),
      /** The one row a role that may not read addresses gets: the domains are not named to it. */
      allDomains: (n: number) => t('deliverability.allDomains', { count: n }),
      added: (email: string) => t('deliverability.added', { email }),
      already: (email: string) => t('deliverability.already', { email }),
      liftLabel: (email: string) => t('deliverability.liftLabel', { email }),
      confirmLift: (email: string) => t('deliverability.confirmLift', { email }),
      lifted: (email: string) => t('deliverability.lifted', { email }),
    },
    /** The operator's language's formats: numbers, days, moments, how long ago. */
    format: words,
  }
}

export type AdminContent = ReturnType<typeof adminContentIn>

/**
 * The operator's words: set by main.tsx from their catalogue before the app's modules are loaded,
 * so that a view may read its slice once, at its module's top. A language chosen later reloads the page.
 */
export let adminContent: AdminContent

export function setAdminWords(words: Words): void {
  adminContent = adminContentIn(words)
}
