// Every word of the admin page.
import type { MailState } from '../../contract/admin-api'
import { type FunnelDay, signupsPerVisit } from '../../contract/growth'
import { DEFAULT_LOCALE, type Locale } from '../../contract/locales'
import type { BreedTarget, SegmentSide } from '../../contract/breed-meters'
import type { MailEventType, SuppressionReason } from '../../contract/mail-events'
import type { DeliveryFigures, QueueFigures } from '../../contract/mail-figures'
import { counted, recipients, withArticle } from '../../contract/counted'
import { SEGMENT, SEGMENT_FIELDS, type SegmentField, type SegmentFieldName, type SegmentFieldOf } from '../../contract/segment'

import type { OperatorRole, TokenRole } from '../../contract/team'
import type { HandOffStep, Platform } from '../../contract/app'
import type { Role } from '../../contract/visitor'
import type { ImportExisting, ImportMode, ImportReason, ImportStatusName } from '../../contract/imports'

/** Each segment field's label, by its name. */
const segmentLabels = Object.fromEntries(SEGMENT_FIELDS.map((name) => [name, SEGMENT[name].label])) as Record<SegmentFieldName, string>

/** What became of mails, as every view that counts them says it (the Mail view, Deliverability, Campaigns). */
const figures = {
  sent: 'Sent',
  delivered: 'Delivered',
  hardBounced: 'Hard bounces',
  softBounced: 'Soft bounces',
  complained: 'Complaints',
  unsubscribed: 'Unsubscribed',
} satisfies Record<keyof DeliveryFigures, string>

/** The sign-in page's button for a link by mail, as other views name it too. */
const sendLink = 'E-mail me a sign-in link'

export const adminContent = {
  figures,
  title: 'Waitlist',
  nav: {
    label: 'Admin',
    overview: 'Overview',
    signups: 'Sign-ups',
    imports: 'Import',
    demand: 'Who is waiting',
    breeds: 'Breeds',
    campaigns: 'Campaigns',
    partners: 'Partners',
    deliverability: 'Deliverability',
    mail: 'Mail',
    team: 'Team',
    audit: 'Audit',
    webhooks: 'Webhooks',
    account: 'Your account',
  },
  signedInAs: (email: string, role: OperatorRole) => `${email} (${role})`,
  notAllowed: 'Your role does not open this page.',
  notFound: 'There is no such page.',
  signIn: {
    heading: 'Sign in to the waitlist',
    passkey: 'Sign in with a passkey',
    waiting: 'Waiting for your passkey…',
    passkeyFailed: 'That passkey did not sign you in. Try again, or ask for a link by e-mail.',
    or: 'or',
    emailLabel: 'Your e-mail address',
    sendLink,
    sending: 'Sending…',
    linkSent: 'If this address belongs to the team, a sign-in link is on its way. It works once, for 10 minutes.',
    tooMany: 'Too many attempts. Try again later.',
  },
  setup: {
    heading: (purpose: 'setup' | 'invite') => (purpose === 'setup' ? 'Set up the waitlist’s first owner' : 'Join the team'),
    intro: (role: OperatorRole) => `You are joining as ${withArticle(role)}. Your passkey is how you sign in from now on.`,
    email: 'Your e-mail address',
    name: 'Your name',
    passkeyName: 'Name of this passkey',
    passkeyNamePlaceholder: 'e.g. Work laptop',
    create: 'Create a passkey and sign in',
    waiting: 'Waiting for your passkey…',
    withoutPasskey: 'Continue without a passkey (sign in by e-mail link)',
    gone: 'This link has expired or was already used. Ask an owner for a new one.',
    failed: 'The passkey was not created. Try again.',
    /** Over plain http at a name other than localhost, the browser has no passkeys at all (WebAuthn needs a secure context). */
    insecure: {
      reason: (origin: string) =>
        `Passkeys need a secure page: https, or localhost. This page is ${origin}, plain http, so this browser cannot create a passkey here.`,
      firstOwner: (localLink: string) =>
        `The first owner comes in with a passkey: open this link at the site’s https address, or on the server’s own machine as ${localLink}. Once you are in, sign in here with “${sendLink}”, and invite the others: they may come in without a passkey.`,
      invite: 'Continue without a passkey: you sign in by e-mail link from then on.',
    },
  },
  reauth: {
    heading: 'Confirm it’s you',
    intro: 'Exports, deletions, sending and team changes need a sign-in within the last 15 minutes.',
    passkey: 'Use my passkey',
    link: 'E-mail me a sign-in link instead',
    linkSent: 'A sign-in link is on its way to you. Open it, then try again.',
    cancel: 'Cancel',
    failed: 'That did not sign you in. Try again.',
  },
  team: {
    heading: 'Team',
    operatorsCaption: 'Operators',
    columns: { email: 'Email', name: 'Name', role: 'Role', passkeys: 'Passkeys', status: 'Status', actions: 'Actions' },
    you: '(you)',
    passkeyCount: (n: number) => `${n} ${n === 1 ? 'passkey' : 'passkeys'}`,
    disabled: 'disabled',
    active: 'active',
    roleOf: (email: string) => `Role of ${email}`,
    disable: 'Disable',
    enable: 'Enable',
    disableLabel: (email: string) => `Disable ${email}`,
    enableLabel: (email: string) => `Enable ${email}`,
    confirmDisable: (email: string) => `Disable ${email}? Their open sessions end at once.`,
    changed: 'Saved.',
    invite: 'Invite someone',
    inviteEmail: 'Their e-mail address',
    inviteRole: 'Role',
    sendInvite: 'Send invitation',
    invited: (email: string) => `An invitation is on its way to ${email}. It works once, for 7 days.`,
    invitations: 'Open invitations',
    invitationColumns: { email: 'Email', role: 'Role', expires: 'Expires (UTC)', actions: 'Actions' },
    revokeInvitationLabel: (email: string) => `Revoke the invitation to ${email}`,
    confirmRevokeInvitation: (email: string) => `Revoke the invitation to ${email}? Its link stops working at once.`,
    invitationRevoked: (email: string) => `The invitation to ${email} is revoked.`,
    noInvitations: 'No open invitations.',
    roles: {
      owner: 'Owner: everything, the team included',
      editor: 'Editor: the figures, the list, campaign drafts and test sends, mail',
      viewer: 'Viewer: the figures only, no addresses',
    } satisfies Record<OperatorRole, string>,
    /** A token's roles: a person's, or the app's own. */
    tokenRoles: {
      owner: 'owner',
      editor: 'editor',
      viewer: 'viewer',
      app: 'app (claims profiles, nothing else)',
    } satisfies Record<TokenRole, string>,
    tokens: 'API tokens',
    tokensIntro: 'For the command line and scripts: sent as “Authorization: Bearer”. A token is shown once, when it is made.',
    tokenColumns: {
      name: 'Name',
      role: 'Role',
      created: 'Made (UTC)',
      expires: 'Expires (UTC)',
      used: 'Last used (UTC)',
      actions: 'Actions',
    },
    never: 'never',
    noTokens: 'No API tokens.',
    tokenName: 'Name',
    tokenRole: 'Role',
    tokenExpires: 'Expires on (optional)',
    addToken: 'Make a token',
    newToken: 'Your new token (copy it now: it is not shown again)',
    revoke: 'Revoke',
    revokeLabel: (name: string) => `Revoke the token ${name}`,
    confirmRevoke: (name: string) => `Revoke the token ${name}? Scripts using it stop working.`,
    revoked: 'revoked',
  },
  webhooks: {
    heading: 'Webhooks',
    intro:
      'Each event is sent as a signed POST (Standard Webhooks: verify it with their library and the secret). Failed deliveries are tried again for about a day and a half; nothing is lost while an endpoint is down.',
    none: 'No endpoint yet.',
    add: 'Add an endpoint',
    url: 'URL (https, a public address)',
    description: 'Description (optional)',
    events: 'Events',
    includeEmail: 'Include the address (the sign-up’s e-mail) in events',
    save: 'Add endpoint',
    secret: 'Its signing secret (copy it now: it is not shown again)',
    rotated: (until: string) => `New signing secret (the old one signs too until ${until.replace('T', ' ').slice(0, 16)} UTC):`,
    enabled: 'enabled',
    disabled: 'disabled',
    withEmail: 'with addresses',
    enable: 'Enable',
    disable: 'Disable',
    rotate: 'Rotate secret',
    test: 'Send a test event',
    tested: 'A test event is on its way.',
    remove: 'Delete',
    confirmRemove: (url: string) => `Delete the endpoint ${url}? Its undelivered events are dropped.`,
    log: 'Deliveries',
    logCaption: (url: string) => `Deliveries to ${url}, newest first`,
    columns: {
      at: 'When (UTC)',
      event: 'Event',
      attempt: 'Attempt',
      status: 'Status',
      duration: 'Time',
      answer: 'Answer',
      actions: 'Actions',
    },
    noLog: 'Nothing sent yet.',
    resend: 'Send again',
    resendLabel: (event: string, at: string) => `Send ${event} of ${at} again`,
    resendSince: 'Send every failed delivery again since',
    resendFailed: 'Send failed again',
    resent: (n: number) => `${n} ${n === 1 ? 'delivery' : 'deliveries'} queued again.`,
    states: { pending: 'waiting', delivering: 'sending', delivered: 'delivered', failed: 'failed' },
  },
  partners: {
    heading: 'Partners',
    intro:
      'A breed club or kennel puts the waitlist on its own site: a script, an iframe or a plain form, each with the partner’s key, which works only on its origins (the key is public, not a secret). A person belongs to the way they first joined; the partner is credited once they confirm. Its page shows only public figures; its people’s addresses are never shared with it.',
    none: 'No partner yet.',
    counts: (signups: number, confirmed: number) =>
      `${signups.toLocaleString('en')} ${signups === 1 ? 'sign-up' : 'sign-ups'}, ${confirmed.toLocaleString('en')} confirmed`,
    disabledTag: 'disabled',
    meterOf: (breed: string | null, country: string | null) =>
      country === null ? 'no meter (no country)' : breed === null ? `meter: ${country}` : `meter: ${breed} in ${country}`,
    key: (name: string) => `Key of ${name}`,
    rotate: 'New key',
    confirmRotate: (name: string) => `Give ${name} a new key? Its site’s embed stops working until it has the new one.`,
    rotated: (name: string) => `${name} has a new key: the old one is refused from now on.`,
    disable: 'Disable',
    enable: 'Enable',
    changed: 'Saved.',
    details: 'Details, snippets and changes',
    countriesCaption: (name: string) => `Sign-ups through ${name} per country`,
    breedsCaption: (name: string) => `Sign-ups through ${name} per breed (each person once)`,
    columns: { country: 'Country', breed: 'Breed', signups: 'Sign-ups', confirmed: 'Confirmed' },
    noCountry: 'not said',
    noneYet: 'None yet.',
    snippets: 'To paste on its site',
    snippetLanguage: 'Language of the form',
    snippet: { script: 'Script (most sites)', iframe: 'Iframe (a site that allows no scripts)', form: 'Plain form (a site with neither)' },
    add: 'Add a partner',
    edit: 'Change',
    name: 'Name',
    origins: 'Origins, one per line (https://club.example; http://localhost:5173 to try it out)',
    thanksUrl: 'Thank-you page after the plain form (optional, on one of the origins)',
    breed: 'Breed for its meter (optional)',
    country: 'Country for its meter (ISO code such as DE; optional)',
    save: 'Add partner',
    saveChange: 'Save changes',
    added: (name: string) => `${name} is added; its snippets are under its details.`,
  },
  imports: {
    heading: 'Import a list',
    intro:
      'Bring in the addresses you already hold: a CSV with a header line and an email column (Mailchimp’s Email Address too), and if you have them language, country, role, breeds and side. Nobody is mailed: imported people wait, unconfirmed, until you send them a campaign that names them. Nobody who stopped e-mails or is suppressed is added back. One import runs at a time.',
    file: 'CSV file',
    fileHint: 'Comma or semicolon, UTF-8. Other columns are left out and named below.',
    mode: 'What to do with the addresses',
    modes: {
      subscribe: 'Add them as sign-ups (unconfirmed, sent nothing)',
      suppress: 'Suppress them: never mail them (a list’s unsubscribed or cleaned addresses)',
    } satisfies Record<ImportMode, string>,
    basis: 'Why we may hold these addresses (the basis, kept with each one)',
    basisHint: 'One sentence, e.g. “Members who ticked ‘news about Kennect’ on the club’s 2026 form”. Required to add sign-ups.',
    existing: 'People already signed up',
    existingChoices: {
      skip: 'Leave them as they are',
      fill: 'Fill in only what they never told us (country, role, breeds, side)',
    } satisfies Record<ImportExisting, string>,
    label: 'Name of this import (optional)',
    start: 'Start the import',
    previewCaption: (rows: number) => `The first ${rows === 1 ? 'row' : `${rows} rows`} as the import will read them`,
    previewColumns: {
      line: 'Line',
      email: 'Email',
      language: 'Language',
      country: 'Country',
      role: 'Role',
      breeds: 'Breeds',
      side: 'Side',
      error: 'Problem',
    },
    unknownBreed: 'not in the catalogue',
    found: (columns: string[]) => `Columns read: ${columns.join(', ')}.`,
    ignored: (columns: string[]) => (columns.length === 0 ? 'No column is left out.' : `Left out: ${columns.join(', ')}.`),
    delimiter: (delimiter: string) => `Separated by “${delimiter}”.`,
    progressLabel: (id: number) => `Progress of import ${id}`,
    progress: (processed: number, percent: number) => `${processed.toLocaleString('en')} rows read (${percent} % of the file)`,
    counts: (status: { added: number; filled: number; skipped: number; failed: number; mode: ImportMode }) =>
      `${status.added.toLocaleString('en')} ${status.mode === 'suppress' ? 'suppressed' : 'added'} · ${status.filled.toLocaleString('en')} filled · ${status.skipped.toLocaleString('en')} skipped · ${status.failed.toLocaleString('en')} failed`,
    statuses: { running: 'running', done: 'done', failed: 'failed', cancelled: 'cancelled' } satisfies Record<ImportStatusName, string>,
    cancel: 'Cancel the import',
    confirmCancel: 'Stop the import where it is? What it has added stays.',
    errorsFile: 'Download the lines not added (errors.csv)',
    errorsLink: 'errors.csv',
    name: (status: { id: number; label: string | null }) => status.label ?? `Import ${status.id}`,
    list: 'Imports',
    listCaption: 'Every import, the newest first',
    none: 'No import yet.',
    columns: {
      id: 'Import',
      started: 'Started (UTC)',
      by: 'By',
      mode: 'Mode',
      basis: 'Basis',
      status: 'Status',
      counts: 'Counts',
      errors: 'Lines not added',
    },
    rows: (rows: number | null) => (rows === null ? '' : `${rows.toLocaleString('en')} rows: `),
    reasons: {
      invalid_email: 'not an address',
      disposable_email: 'a throwaway domain',
      unknown_country: 'unknown country',
      unknown_role: 'unknown role',
      unknown_side: 'unknown side',
      too_many_breeds: 'more than five breeds',
      breed_too_long: 'a breed name over 60 characters',
      malformed: 'not readable as CSV',
      repeat: 'earlier in the file',
      exists: 'signed up already',
      suppressed: 'suppressed or stopped e-mails',
    } satisfies Record<ImportReason, string>,
    started: (id: number) => `Import ${id} started.`,
    /** Under the campaign composer's switch: who these people are, and on what basis they are held. */
    composer:
      'Imported people never confirmed their address with us: each campaign mail asks them to, with a button to their page. Held on these bases:',
    composerNone: 'No import has brought anyone in yet.',
    composerBasis: (label: string | null, id: number, basis: string, added: number) =>
      `${label ?? `Import ${id}`} (${added.toLocaleString('en')} added): ${basis}`,
  },
  audit: {
    heading: 'Audit log',
    intro: 'Who did what, newest first. Kept for a year; visitors are named by their sign-up’s number, never by address.',
    caption: 'The audit log, newest first',
    columns: { at: 'When (UTC)', actor: 'Who', action: 'What', target: 'Target', detail: 'Detail' },
    more: 'Older entries',
    none: 'Nothing yet.',
  },
  account: {
    heading: 'Your account',
    passkeys: 'Your passkeys',
    passkeyColumns: { name: 'Name', created: 'Made (UTC)', used: 'Last used (UTC)', actions: 'Actions' },
    noPasskeys: 'No passkey yet: you sign in by e-mail link.',
    addPasskey: 'Add a passkey',
    passkeyName: 'Name of the new passkey',
    added: 'Passkey added.',
    remove: 'Remove',
    removeLabel: (name: string) => `Remove the passkey ${name}`,
    confirmRemove: (name: string) => `Remove the passkey ${name}?`,
    failed: 'The passkey was not added. Try again.',
  },
  signOut: 'Sign out',
  total: 'Sign-ups',
  chartLabel: 'Sign-ups per day',
  chartEmpty: 'No sign-ups yet.',
  perDayTable: 'Sign-ups per day, newest first',
  perDayColumns: { day: 'Day (UTC)', count: 'Sign-ups' },
  sources: 'Top sources',
  direct: '(direct)',
  /** A sign-up that came through another's invite link: whose. */
  invitedBy: (email: string) => `invited by ${email}`,
  /** A sign-up an import brought in: on what basis, and when (it never confirmed unless its status says so). */
  importedOn: (basis: string, at: string) => `imported ${at.replace('T', ' ').slice(0, 16)} UTC on the basis: “${basis}”`,
  listLabel: 'All sign-ups',
  searchLabel: 'Search addresses',
  searchPlaceholder: 'part of an address',
  columns: { email: 'Email', joined: 'Joined (UTC)', status: 'Status', profile: 'Profile', source: 'Source', actions: 'Actions' },
  status: {
    confirmed: 'confirmed',
    unconfirmed: 'not confirmed',
    unsubscribed: 'no e-mails',
    mail: (state: MailState) => `mail ${state}`,
    mailEvent: { 'hard-bounce': 'bounced', 'soft-bounce': 'soft bounce', complaint: 'complained' } satisfies Record<MailEventType, string>,
    suppressed: 'suppressed',
  },
  roles: { breeder: 'breeder', owner: 'owner', club: 'club', enthusiast: 'enthusiast' } satisfies Record<Role, string>,
  /** A language as the team reads it, with its own name beside: "German (Deutsch)". */
  language: (locale: Locale) => {
    const english = new Intl.DisplayNames(['en'], { type: 'language' }).of(locale) ?? locale
    const own = new Intl.DisplayNames([locale], { type: 'language' }).of(locale) ?? locale
    return locale === DEFAULT_LOCALE ? english : `${english} (${own})`
  },
  noProfile: '(no profile)',
  mail: {
    heading: 'Mail',
    outbox: 'Queue',
    delivery: 'Mails handed to the mail server',
    states: { queued: 'Queued', sending: 'Sending', failed: 'Failed' } satisfies Record<keyof QueueFigures, string>,
    viaSmtp: 'Mail leaves through the SMTP server set in SMTP_URL.',
    viaFiles: 'No SMTP_URL is set: mail is written to files (MAIL_DIR) and shown here, newest first.',
    localHeading: 'Local mailbox',
    noLocal: 'No mail yet.',
    preview: 'Preview',
    previewLabel: (subject: string) => `Preview: ${subject}`,
    close: 'Close preview',
    frameTitle: 'The mail as a mail client shows it',
    textVersion: 'Plain-text part',
    to: 'To',
    date: 'Date',
  },
  none: 'No sign-ups match.',
  loadMore: 'Load more',
  exportCsv: 'Export CSV',
  exporting: 'Exporting…',
  remove: 'Remove',
  removeLabel: (email: string) => `Remove ${email}`,
  confirmRemove: (email: string) => `Remove ${email} from the waitlist for good?`,
  failed: 'Something went wrong. Please try again.',
  /** How fresh the figures only the rows can answer are (contract/campaigns.ts, Segments.countedAt). */
  countedAt: (iso: string, what: string) =>
    `${what} counted at ${iso.slice(11, 19)} UTC, and again each minute while the list is asked for.`,
  demand: {
    heading: 'Who is waiting',
    /** `breed`: the name of the breed the map is filtered to. */
    totals: (total: number, confirmed: number, unsubscribed: number, breed?: string) =>
      `${counted(total, 'sign-up', 'sign-ups')}${breed ? ` who named ${breed}` : ''}: ${confirmed.toLocaleString('en')} confirmed, ${unsubscribed.toLocaleString('en')} stopped e-mails (left out below).`,
    /** Beside who waits: those the app has taken (they wait no more). */
    claimed: (claimed: number) =>
      claimed === 0
        ? 'None has moved into the app yet.'
        : `${counted(claimed, 'person has', 'people have')} moved into the app (their profile claimed by it).`,
    /** Those an import brought in who never confirmed: counted apart from those who joined themselves. */
    imported: ({ total, byCountry }: { total: number; byCountry: { country: string | null; total: number }[] }) =>
      `${counted(total, 'person', 'people')} came with an import and never confirmed, counted apart (in none of the figures below): ${byCountry
        .slice(0, 10)
        .map((c) => `${c.country ?? 'no country'} ${c.total.toLocaleString('en')}`)
        .join(', ')}.`,
    /** Said under a breed filter: the launch meters and inviters are not filtered. */
    forEveryone: 'The launch meters and top inviters below count everyone, whatever their breed.',
    chartLabel: 'Sign-ups per country by role, the largest countries first',
    tableCaption: 'Who is waiting, per country',
    columns: {
      country: 'Country',
      breeders: 'Breeders',
      owners: 'Owners',
      clubs: 'Clubs',
      enthusiasts: 'Enthusiasts',
      unsaid: 'Not said',
      total: 'Total',
      both: 'Both sides',
      ios: 'iPhone',
      android: 'Android',
      claimed: 'In the app',
    },
    both: 'yes',
    noCountry: '(not said)',
    breedsCaption: 'The most named breeds',
    breedColumns: { breed: 'Breed', breeders: 'Breeders', owners: 'Owners', others: 'Others', total: 'Total' },
    phonesCaption: 'Their phones, and those already in the app, per country',
    platformsCaption: 'Who is waiting, per phone (as their sign-up’s browser named it or they said)',
    platformColumns: { platform: 'Phone', total: 'Sign-ups', confirmed: 'Confirmed' },
    platforms: { ios: 'iPhone', android: 'Android', other: 'Another (or a desktop)' } satisfies Record<Platform, string>,
    noPlatform: '(not recorded)',
    localesCaption: 'Who is waiting, per language (the language of their mails)',
    localeColumns: { language: 'Language', total: 'Sign-ups', confirmed: 'Confirmed' },
    roleCountry: 'Per role and country (confirmed / not confirmed)',
    roleCountryColumns: { role: 'Role', country: 'Country', confirmed: 'Confirmed', unconfirmed: 'Not confirmed' },
    noRole: '(not said)',
    none: 'Nobody has told us yet.',
  },
  launch: {
    heading: 'Launch meters',
    intro: 'A country is ready when its confirmed breeders and owners (who have not stopped e-mails) reach its targets.',
    caption: 'Each country: confirmed breeders and owners against its targets, the readiest first',
    columns: { country: 'Country', breeders: 'Breeders', owners: 'Owners' },
    of: (have: number, want: number) => `${have.toLocaleString('en')} of ${want.toLocaleString('en')}`,
    ready: 'ready',
    none: 'No confirmed sign-up has named a country yet.',
    targets: 'Targets',
    targetsIntro: 'Breeders and owners a country needs before the app opens there; every country not listed takes the default.',
    defaultRow: 'Every other country',
    country: 'Country code',
    breeders: 'Breeders',
    owners: 'Owners',
    belowPublic: (min: number) =>
      `Visitors see no count under ${min}: a target under ${min} shows as reached on their pages only once ${min} breeders and ${min} owners (and a little more: each figure’s secret offset) wait. The team’s meters here count exactly.`,
    addCountry: 'Add a country',
    removeCountry: (code: string) => `Remove ${code || 'this row'}`,
    save: 'Save targets',
    saved: 'Targets saved.',
    inviters: 'Top inviters',
    inviterColumns: { email: 'Email', joined: 'Joined via link', confirmed: 'Confirmed' },
    noInviters: 'Nobody has joined through an invite link yet.',
    /** An inviter for a role that may not see addresses. */
    inviterById: (id: number) => `sign-up ${id}`,
  },
  breeds: {
    heading: 'Breeds',
    intro:
      'Each breed’s confirmed studs, dams and seekers (who have not stopped e-mails) per country, against its target: a breed is ready in a country when its studs and its dams both reach it. The nearest to ready first.',
    counted: (at: string) => `Counted at ${at.replace('T', ' ').slice(0, 16)} UTC: the counts are at most a minute old.`,
    breed: 'Breed',
    anyBreed: 'All breeds',
    country: 'Country',
    anyCountry: 'All countries',
    side: 'Side',
    sides: { '': 'Any side', stud: 'Studs', dam: 'Dams', seeker: 'Seekers' } satisfies Record<SegmentSide | '', string>,
    downloadCsv: 'Download CSV',
    caption: 'Each breed per country against its target, the nearest to ready first',
    columns: {
      breed: 'Breed',
      country: 'Country',
      studs: 'Studs',
      dams: 'Dams',
      seekers: 'Seekers',
      target: 'Target (studs / dams)',
      ready: 'Ready',
    },
    allCountries: 'All countries',
    /** Where a country is a code: its English name, with the code beside. */
    place: (name: string, code: string) => `${name} (${code})`,
    target: (target: BreedTarget) => `${target.studs.toLocaleString('en')} / ${target.dams.toLocaleString('en')}`,
    ready: 'ready',
    notReady: 'not yet',
    none: 'No confirmed profile names a breed of the catalogue yet.',
    noneFiltered: 'No breed matches these filters.',
    targets: 'Targets',
    targetsIntro: 'Studs and dams a breed needs in a country before the app opens there for it.',
    defaultRow: 'Every breed without a target of its own',
    ownTargets: (n: number) =>
      n === 1
        ? '1 breed keeps a target of its own (not changed here).'
        : `${counted(n, 'breed', 'breeds')} keep targets of their own (not changed here).`,
    studs: 'Studs',
    dams: 'Dams',
    belowPublic: (min: number) =>
      `Visitors see no count under ${min}: a target under ${min} shows as reached on their pages only once ${min} studs and ${min} dams (and a little more: each figure’s secret offset) wait. The team’s Ready column here counts exactly.`,
    save: 'Save targets',
    saved: 'Targets saved.',
    unmatched: 'Names the catalogue missed',
    unmatchedIntro:
      'Breed names people typed that the catalogue does not know, the most typed first. Map one to a breed (type its name in any language, or pick it as it is offered): every profile that typed it, and every one that types it later, counts for that breed, and a campaign naming it reaches that breed’s people.',
    noUnmatched: 'None: the catalogue knew every name typed.',
    typed: (n: number) => (n === 1 ? 'typed once' : `typed ${n.toLocaleString('en')} times`),
    breedFor: (name: string) => `Breed for “${name}”`,
    breedPlaceholder: 'A breed’s name in any language, or its id',
    /** The names the Map field offers as one types: a name in another language says the breed's English one. */
    breedsOffered: 'Breeds of the catalogue',
    breedOffered: (name: string, english: string) => (name === english ? name : `${name} (${english})`),
    map: 'Map',
    mapLabel: (name: string) => `Map “${name}”`,
    mapped: (name: string, breed: string, signups: number) =>
      `“${name}” is now ${breed}: ${counted(signups, 'sign-up', 'sign-ups')} changed.`,
  },
  funnel: {
    heading: 'Funnel',
    intro:
      'Views are counted as the page is sent, without a cookie: bots, link previews and prefetches are left out, and a visitor is told apart for one day only. Sign-ups count on the day they joined. Sign-ups per visit is a rate, not a share: a sign-up sent straight to the API (an app, another site’s form) visited no page, so there may be more sign-ups than visits.',
    since: 'From',
    until: 'To',
    show: 'Show',
    /** Said under a breed filter: a page view has no breed. */
    breedNote: (breed: string) =>
      `Views and visitors are everyone’s (a page view has no breed); sign-ups and the steps after count only those who named ${breed}.`,
    stages: [
      ['visitors', 'Visitors'],
      ['signups', 'Sign-ups'],
      ['confirmed', 'Confirmed'],
      ['profiled', 'Told their profile'],
      ['inviters', 'Brought a confirmed sign-up'],
    ] as const satisfies readonly (readonly [keyof FunnelDay, string])[],
    chartLabel: 'The funnel over the chosen days',
    /** A share of a whole: of sign-ups in the funnel, of the step before into the app. */
    rate: (part: number, whole: number) => (whole === 0 ? '–' : `${((part / whole) * 100).toFixed(1)} %`),
    ofBefore: 'of the step before',
    /** Beside the funnel's steps after sign-ups: each is some of the day's sign-ups. */
    ofSignups: 'of sign-ups',
    /** Sign-ups per visit, in the tables (contract/growth.ts). */
    perVisit: (signups: number, visitors: number) => signupsPerVisit(signups, visitors) ?? '–',
    /** The same beside the chart's sign-ups. */
    perVisitNote: (signups: number, visitors: number) => {
      const rate = signupsPerVisit(signups, visitors)
      return rate === null ? '' : `${rate} per visit`
    },
    handOff: {
      heading: 'Into the app',
      intro:
        'People, each counted once when it first happened, whatever the days chosen above: sent a mail holding their app link, shown its page in a browser (where the app was not installed: an installed app opens the link without asking us), and taken into the app by their code.',
      stages: [
        ['invited', 'Sent their app link'],
        ['opened', 'Opened its page'],
        ['claimed', 'Claimed by the app'],
      ] as const satisfies readonly (readonly [HandOffStep, string])[],
      chartLabel: 'Into the app, since the first app link was mailed',
      countriesCaption: 'Per country (as they had said when it happened)',
      breedsCaption: 'Per breed they had named',
      columns: { country: 'Country', breed: 'Breed', invited: 'Sent', opened: 'Opened', claimed: 'Claimed', rate: 'Claimed per sent' },
      noCountry: '(not said)',
      none: 'No app link has been mailed yet: put {{app_link}} or {{store_url}} in a campaign.',
    },
    daysCaption: 'Per day (UTC), newest first',
    sourcesCaption: 'Per source: utm_source, else the referring site, else direct; a partner’s sign-ups under its name',
    /** A partner's sign-ups, named by the partner (they came through its embed, so no view of ours counts them). */
    partnerSource: (name: string) => `${name} (partner)`,
    columns: {
      day: 'Day',
      source: 'Source',
      views: 'Views',
      visitors: 'Visitors',
      signups: 'Sign-ups',
      confirmed: 'Confirmed',
      profiled: 'Profiled',
      inviters: 'Inviters',
      joined: 'Sign-ups per visit',
      confirmedRate: 'Confirmed per sign-up',
    },
  },
  campaigns: {
    heading: 'Campaigns',
    compose: 'New campaign',
    subject: 'Subject (English)',
    markdown: 'Message (Markdown, English)',
    otherLanguages: 'Other languages (optional: a recipient whose language is left empty gets the English)',
    languageSubject: (language: string) => `Subject (${language})`,
    languageMarkdown: (language: string) => `Message (Markdown, ${language})`,
    previewLanguage: 'Preview in',
    markdownHint:
      'Placeholders: {{my_page_url}} (each recipient’s own page), {{app_link}} (their own app link: the app opens it and takes over their profile; a browser gets the store), {{store_url}} (the store for their phone), {{app_store_url}} (the App Store for everyone). The app’s need APP_STORE_URL or PLAY_STORE_URL.',
    defaultMarkdown:
      'Kennect is ready for you.\n\n[Get the app]({{store_url}})\n\nOnce it is on your phone, open your own link there and the app takes over the profile you gave us: {{app_link}}\n\nYour page, where you can change what you told us or stop our e-mails: {{my_page_url}}\n',
    /** The default without the app's links, for a server without a store address (they would be refused). */
    defaultMarkdownWithoutStore:
      'Kennect is ready for you.\n\nYour page, where you can change what you told us or stop our e-mails: {{my_page_url}}\n',
    segment: 'Who gets it',
    // Each field's label by its name, from the fields' definition (contract/segment.ts), where the
    // command line's help reads its words too.
    ...segmentLabels,
    /** A tick box's words: a value of a field with choices. */
    option: <F extends SegmentFieldOf<'choice'>>(field: F, value: (typeof SEGMENT)[F]['of'][number]): string =>
      (SEGMENT[field].labels as Readonly<Record<string, string>>)[value] ?? value,
    /** Under a field: what it selects, and how to fill it in. */
    hint: (field: SegmentField): string => {
      const help = `${field.help.charAt(0).toUpperCase()}${field.help.slice(1)}.`
      switch (field.kind) {
        case 'choice':
          return `${help} None ticked: any.`
        case 'codes':
          return `${help} ${field.codeName}s such as ${field.example}, separated by commas; empty: anywhere.`
        case 'texts':
          return `${help} One per line; empty: any.`
        case 'moment':
          return `${help} A date (2026-11-01), or a moment with its zone (2026-11-01T12:00:00Z); empty: any time.`
        case 'number':
          return `${help} Empty: anyone.`
        case 'switch':
          return help
        case 'tristate':
          return `${help} Either: anyone.`
      }
    },
    /** An opened draft whose segment the form cannot show whole (saved before the form could). */
    unshown: (labels: string[]) =>
      `This draft’s segment says more than the form shows in: ${labels.join(', ')}. Count and preview saves what the form shows.`,
    preview: 'Count and preview',
    recipients: (n: number) => recipients(n),
    previewFrame: 'The campaign as a mail client shows it',
    testAddress: 'Send a test to',
    sendTest: 'Send test',
    testSent: 'Test sent.',
    send: (n: number) => `Send to ${recipients(n)}`,
    confirmSend: (n: number, subject: string) => `Send “${subject}” to ${recipients(n)} now?`,
    list: 'All campaigns',
    none: 'No campaigns yet.',
    progressLabel: (subject: string) => `Progress of “${subject}”`,
    progress: (sent: number, recipients: number) => `${sent.toLocaleString('en')} of ${recipients.toLocaleString('en')} sent`,
    counts: (queued: number, failed: number, delivery: DeliveryFigures) =>
      `${queued.toLocaleString('en')} queued · ${failed.toLocaleString('en')} failed · ${delivery.delivered.toLocaleString('en')} delivered · ${delivery.hardBounced.toLocaleString('en')} hard bounces · ${delivery.softBounced.toLocaleString('en')} soft bounces · ${delivery.complained.toLocaleString('en')} complaints`,
    statuses: { draft: 'draft', sending: 'sending', paused: 'paused', finished: 'finished' },
    pause: 'Pause',
    resume: 'Resume',
    pausedItself: 'Paused itself, for its deliveries (look at them before resuming):',
    sendDraft: 'Send',
    open: 'Open',
    openLabel: (subject: string) => `Open the draft “${subject}”`,
    deleteDraft: 'Delete',
    deleteLabel: (subject: string) => `Delete the draft “${subject}”`,
    confirmDelete: (subject: string) => `Delete the draft “${subject}”? It cannot be undone.`,
    editing: (id: number) => `Draft #${id}: “Count and preview” saves it`,
    newCampaign: 'Start a new campaign',
    refused: 'The campaign was refused:',
    sendingIsOwners: 'Sending is for owners: ask one to send this draft.',
  },
  deliverability: {
    heading: 'Deliverability',
    intro:
      'Whether our mail reaches inboxes. Sent: handed to the mail server. Delivered: sent, less the hard bounces. Bounces and complaints count the mails they were reported for; unsubscribed counts recipients who stopped e-mails after the mail reached them (a complaint stops them too).',
    rateHeading: 'Complaint rate',
    rateIntro: (days: number) =>
      `Spam complaints against the mail the mail server accepted over the last ${days} days, every kind of mail counted. Gmail and Yahoo filter or refuse a sender who reaches 0.3 %.`,
    meterLabel: 'Complaint rate against the 0.3 % line',
    rate: (rate: string) => `${rate} of mail reported as spam`,
    noRate: 'Nothing was sent in the window yet.',
    line: (limit: string) => `the line: ${limit}`,
    above: (limit: string) =>
      `At or above the ${limit} line: stop sending campaigns and find out why before the providers refuse our mail.`,
    below: (limit: string) => `Below the ${limit} line.`,
    rateFigures: (complaints: number, sent: number) =>
      `${counted(complaints, 'complaint', 'complaints')} against ${counted(sent, 'mail', 'mails')} accepted.`,
    unattributed: (hard: number, soft: number, complaints: number) =>
      `Reported by address alone (no mail named), so in no row below: ${hard.toLocaleString('en')} hard bounces, ${soft.toLocaleString('en')} soft bounces, ${complaints.toLocaleString('en')} complaints.`,
    counted: (at: string) => `Counted at ${at.replace('T', ' ').slice(0, 16)} UTC.`,
    campaignsCaption: 'Each campaign sent, the newest first',
    domainsCaption: 'Mail to sign-ups per recipient domain (confirmations and campaigns), the most mailed first',
    columns: {
      campaign: 'Campaign',
      status: 'Status',
      domain: 'Domain',
      sent: figures.sent,
      delivered: figures.delivered,
      hard: figures.hardBounced,
      soft: figures.softBounced,
      complained: figures.complained,
      unsubscribed: figures.unsubscribed,
    },
    /** A figure's share of the mails sent, said under it. */
    share: (part: number, whole: number) => (whole === 0 ? '' : `${((part / whole) * 100).toFixed(1)} %`),
    otherDomains: (n: number) => `${counted(n, 'other domain', 'other domains')}`,
    /** The one row a role that may not read addresses gets: the domains are not named to it. */
    allDomains: (n: number) => `${counted(n, 'domain', 'domains')} (named to those who may read addresses)`,
    noCampaigns: 'No campaign has been sent yet.',
    noDomains: 'No mail has been sent yet.',
    suppressions: 'Suppressions',
    suppressionsIntro:
      'Addresses never mailed again, confirmations included: after a hard bounce, three soft bounces in a week, a complaint, by hand, or by an import. An address whose sign-up was deleted is kept as a hash alone, and not shown.',
    search: 'Search suppressed addresses',
    searchPlaceholder: 'part of an address',
    suppressionsCaption: 'Suppressed addresses, the newest first',
    suppressionColumns: { email: 'Email', reason: 'Reason', at: 'Since (UTC)', actions: 'Actions' },
    reasons: {
      'hard-bounce': 'hard bounce',
      'soft-bounce': 'soft bounces',
      complaint: 'complaint',
      manual: 'added by hand',
      imported: 'imported (a list’s unsubscribed or cleaned)',
    } satisfies Record<SuppressionReason, string>,
    forgotten: '(sign-up deleted: hash only)',
    noSuppressions: 'No address is suppressed.',
    noMatches: 'No suppressed address matches.',
    add: 'Suppress an address',
    addLabel: 'Address to suppress',
    addButton: 'Suppress',
    added: (email: string) => `${email} is suppressed: nothing more is mailed to it.`,
    already: (email: string) => `${email} was suppressed already.`,
    lift: 'Lift',
    liftLabel: (email: string) => `Lift the suppression of ${email}`,
    confirmLift: (email: string) => `Lift the suppression of ${email}? Our mail may reach it again.`,
    lifted: (email: string) => `${email} may be mailed again.`,
    downloadCsv: 'Download CSV',
  },
}
