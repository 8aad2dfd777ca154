// The visitor's own page: confirm, tell us about you, download, stop e-mails, delete. Plain forms
// that post and come back (the server redirects after each), so it works without any script; the
// page carries none. Rendered by the server through the build's render module (entry-visitor.tsx).
import { CircleCheck, Copy, Download, Mail, MailX, MessageCircle, PawPrint, Share2, Trash2 } from 'lucide'
import { SvgIcon } from '../components/svg-icon'
import type { ReactNode } from 'react'
import type { CountryCode } from '../../contract/countries'
import { barPercent, type PublicCountryMeter } from '../../contract/public-figures'
import type { Locale } from '../../contract/locales'
import {
  COUNTRY_CLUB,
  healthTestsFor,
  type KennelClub,
  LITTER_CHOICES,
  MAX_BREED_LENGTH,
  MAX_BREEDS,
  MAX_OTHER_TESTS_LENGTH,
  type ProfileBreed,
  ROLES,
  SIDES,
  type VisitorBreedMeter,
  type VisitorGone,
  type VisitorView,
} from '../../contract/visitor'
import { Button, buttonVariants } from '../components/ui/button'
import { Input } from '../components/ui/input'
import { cn } from '../lib/cn'
import { clubsFor } from './clubs'
import type { VisitorContent } from './content'
import { PLATFORMS } from '../../contract/app'

export interface Choices {
  /** Recognised breed names, offered as the visitor types. */
  breeds: readonly string[]
  /** Country codes with their names in the page's language, in the order of the names. */
  countries: readonly { code: CountryCode; name: string }[]
  /** The languages to choose from, each named in itself. */
  languages: readonly { locale: Locale; name: string }[]
}

/** The page's frame. On a 320 px phone its margins and the cards' padding leave the side's and the club's selects room for their longest option. */
export function Frame({ brand, children }: { brand: string; children: ReactNode }) {
  return (
    <div className="min-h-screen bg-stone-50 dark:bg-stone-950">
      <header className="bg-stone-950 text-white">
        <div className="mx-auto flex max-w-2xl items-center gap-2 px-4 py-6 text-xl font-bold sm:px-8">
          <span className="grid size-9 place-items-center rounded-xl bg-brand-600">
            <SvgIcon icon={PawPrint} className="size-5" />
          </span>
          {brand}
        </div>
      </header>
      <main className="mx-auto max-w-2xl px-4 pt-8 pb-16 sm:px-8">{children}</main>
    </div>
  )
}

function Card({ id, heading, children }: { id: string; heading: string; children: ReactNode }) {
  const headingId = `${id}-heading`
  return (
    <section
      id={id}
      aria-labelledby={headingId}
      className="mt-6 rounded-2xl border border-stone-200 bg-white p-4 shadow-sm sm:p-6 dark:border-stone-800 dark:bg-stone-900"
    >
      <h2 id={headingId} className="text-xl font-semibold text-stone-900 dark:text-stone-50">
        {heading}
      </h2>
      {children}
    </section>
  )
}

const text = 'mt-2 text-stone-700 dark:text-stone-300'
const label = 'block font-medium text-stone-900 dark:text-stone-50'
/** A field's label in a breed's row, above it. */
const rowLabel = 'block text-sm font-medium text-stone-800 dark:text-stone-200'
/** A field in the dark scheme, as the page around it (the shared Input is drawn for light pages). */
const darkField = 'dark:border-stone-600 dark:bg-stone-950 dark:text-stone-50'
/** A select, its margin left to where it stands. */
const selectClass = cn(
  'h-12 w-full rounded-xl border border-stone-300 bg-white px-3 text-base text-stone-900 focus-visible:border-brand-600 focus-visible:ring-4 focus-visible:ring-brand-200 focus-visible:outline-none',
  darkField,
)
const choiceClass =
  'flex items-center gap-3 rounded-xl border border-stone-300 px-4 py-3 text-stone-900 has-checked:border-brand-700 has-checked:bg-brand-50 dark:border-stone-600 dark:text-stone-50 dark:has-checked:border-brand-400 dark:has-checked:bg-brand-950'

/** A club by its initials and its country's short name in the page's language ("VDH · Deutschland", "KC · UK"). */
function clubName(club: KennelClub, content: VisitorContent): string {
  const country = (Object.entries(COUNTRY_CLUB) as [CountryCode, KennelClub][]).find(([, own]) => own === club)?.[0]
  return country ? `${club} · ${content.profile.clubCountry(country)}` : club
}

/** One breed: its name, what the visitor brings of it, and (folded) the health tests done. */
function BreedRow({ n, breed, content }: { n: number; breed: ProfileBreed | null; content: VisitorContent }) {
  const copy = content.profile
  const done = breed?.tests ?? []
  const offered = [...new Set([...healthTestsFor(breed?.breed ?? null), ...done])]
  return (
    <li className="grid gap-3 rounded-xl border border-stone-200 p-3 sm:grid-cols-2 dark:border-stone-700">
      <div>
        <label htmlFor={`breed-${n}`} className={rowLabel}>
          {copy.breedLabel(n)}
        </label>
        <Input
          id={`breed-${n}`}
          name={`breed-${n}`}
          list="breed-names"
          defaultValue={breed?.name ?? ''}
          maxLength={MAX_BREED_LENGTH}
          autoComplete="off"
          aria-describedby="breeds-hint"
          className={cn('mt-1', darkField)}
        />
      </div>
      <div>
        {/* The question above the select, not in its option: the option alone fits a 320 px
            phone in every language. The name says which breed ("Breed 1: what I bring"). */}
        <label htmlFor={`side-${n}`} className={rowLabel}>
          {copy.side}
        </label>
        <select
          id={`side-${n}`}
          name={`side-${n}`}
          aria-label={copy.sideLabel(n)}
          defaultValue={breed?.side ?? ''}
          className={cn(selectClass, 'mt-1')}
        >
          <option value="">{copy.noSide}</option>
          {SIDES.map((side) => (
            <option key={side} value={side}>
              {copy.sides[side]}
            </option>
          ))}
        </select>
      </div>
      <details className="sm:col-span-2" open={done.length > 0 || Boolean(breed?.otherTests)}>
        <summary className="cursor-pointer text-sm font-medium text-stone-800 dark:text-stone-200">{copy.tests}</summary>
        <fieldset className="mt-2">
          <legend className="sr-only">{copy.testsLabel(n)}</legend>
          <div className="flex flex-wrap gap-x-4 gap-y-2">
            {offered.map((test) => (
              <label key={test} className="flex items-center gap-2 text-sm text-stone-800 dark:text-stone-200">
                <input
                  type="checkbox"
                  name={`tests-${n}`}
                  value={test}
                  defaultChecked={done.includes(test)}
                  className="size-4 accent-brand-700"
                />
                {copy.testNames[test]}
              </label>
            ))}
          </div>
          <label htmlFor={`other-tests-${n}`} className="mt-3 block text-sm text-stone-800 dark:text-stone-200">
            {copy.otherTests}
          </label>
          <Input
            id={`other-tests-${n}`}
            name={`other-tests-${n}`}
            defaultValue={breed?.otherTests ?? ''}
            maxLength={MAX_OTHER_TESTS_LENGTH}
            aria-label={copy.otherTestsLabel(n)}
            className={cn('mt-1', darkField)}
          />
        </fieldset>
      </details>
    </li>
  )
}

export function VisitorPage({
  view,
  content,
  choices,
  brand,
  error,
}: {
  view: VisitorView
  content: VisitorContent
  choices: Choices
  brand: string
  error?: 'invalid-profile' | undefined
}) {
  if (view.step === 'confirm-delete') return <ConfirmDelete view={view} content={content} brand={brand} />
  const joinedOn = new Intl.DateTimeFormat(view.locale === 'en' ? 'en-GB' : view.locale, { dateStyle: 'long', timeZone: 'UTC' }).format(
    new Date(view.joinedAt),
  )
  const { profile } = view
  const breeds = Array.from({ length: MAX_BREEDS }, (_, i) => profile.breeds[i] ?? null)
  return (
    <Frame brand={brand}>
      <h1 className="text-3xl font-extrabold tracking-tight text-stone-900 dark:text-stone-50">{content.heading}</h1>
      <p className="mt-2 text-lg break-words text-stone-700 dark:text-stone-300">{content.joined(view.email, joinedOn)}</p>
      {view.notice || error ? (
        <p
          role="status"
          className={cn(
            'mt-6 rounded-xl border-l-4 bg-white px-4 py-3 font-medium text-stone-900 shadow-sm dark:bg-stone-900 dark:text-stone-50',
            error ? 'border-red-600' : 'border-emerald-600',
          )}
        >
          {error ? content.profile.invalid : view.notice ? content.notices[view.notice] : null}
        </p>
      ) : null}

      <Card id="confirm" heading={content.confirm.heading}>
        {view.confirmed ? (
          <p className="mt-2 flex items-center gap-2 font-medium text-emerald-800 dark:text-emerald-300">
            <SvgIcon icon={CircleCheck} className="size-5 shrink-0" />
            {content.confirm.done}
          </p>
        ) : (
          <form method="post" action={`${view.base}/confirm`}>
            <p className={text}>{content.confirm.text}</p>
            <Button type="submit" className="mt-4">
              {content.confirm.button}
            </Button>
          </form>
        )}
      </Card>

      <LaunchCard view={view} content={content} countryName={(code) => choices.countries.find((c) => c.code === code)?.name ?? code} />

      <Card id="profile" heading={content.profile.heading}>
        <p className={text}>{content.profile.text}</p>
        <form method="post" action={`${view.base}/profile`} className="mt-5 grid gap-6">
          <fieldset>
            <legend className={label}>{content.profile.role}</legend>
            <div className="mt-2 grid gap-2 sm:grid-cols-2">
              {[...ROLES, '' as const].map((role) => (
                <label key={role || 'none'} className={choiceClass}>
                  <input
                    type="radio"
                    name="role"
                    value={role}
                    defaultChecked={(profile.role ?? '') === role}
                    className="size-4 accent-brand-700"
                  />
                  {role ? content.profile.roles[role] : content.profile.noRole}
                </label>
              ))}
            </div>
          </fieldset>
          <fieldset>
            <legend className={label}>{content.profile.breeds}</legend>
            <p id="breeds-hint" className="mt-1 text-sm text-stone-600 dark:text-stone-400">
              {content.profile.breedsHint}
            </p>
            <ol className="mt-3 grid gap-3">
              {breeds.map((breed, i) => (
                <BreedRow key={i} n={i + 1} breed={breed} content={content} />
              ))}
            </ol>
            <datalist id="breed-names">
              {choices.breeds.map((name) => (
                <option key={name} value={name} />
              ))}
            </datalist>
          </fieldset>
          <div>
            <label htmlFor="country" className={label}>
              {content.profile.country}
            </label>
            <select id="country" name="country" defaultValue={profile.country ?? ''} className={cn(selectClass, 'mt-2')}>
              <option value="">{content.profile.noCountry}</option>
              {choices.countries.map(({ code, name }) => (
                <option key={code} value={code}>
                  {name}
                </option>
              ))}
            </select>
          </div>
          <div>
            <label htmlFor="club" className={label}>
              {content.profile.club}
            </label>
            <select id="club" name="club" defaultValue={profile.club ?? ''} className={cn(selectClass, 'mt-2')}>
              <option value="">{content.profile.noClub}</option>
              {clubsFor(profile.country).map((club) => (
                <option key={club} value={club}>
                  {club === 'other' ? content.profile.otherClub : clubName(club, content)}
                </option>
              ))}
            </select>
          </div>
          <fieldset>
            <legend className={label}>{content.profile.litters}</legend>
            <p id="litters-note" className="mt-1 text-sm text-stone-600 dark:text-stone-400">
              {content.profile.littersNote}
            </p>
            <div className="mt-2 flex flex-wrap gap-2">
              {[...LITTER_CHOICES, null].map((n) => (
                <label key={n ?? 'none'} className={choiceClass}>
                  <input
                    type="radio"
                    name="litters"
                    value={n ?? ''}
                    defaultChecked={profile.litters === n}
                    aria-describedby="litters-note"
                    className="size-4 accent-brand-700"
                  />
                  {n === null
                    ? content.profile.noLitters
                    : n === 0
                      ? content.profile.littersNone
                      : n === 3
                        ? content.profile.littersMore
                        : n}
                </label>
              ))}
            </div>
          </fieldset>
          <div>
            <Button type="submit">{content.profile.save}</Button>
          </div>
        </form>
      </Card>

      <AppCard view={view} content={content} />

      <Card id="language" heading={content.language.heading}>
        <p className={text}>{content.language.text}</p>
        {/* A choice stores the sign-up's language (a GET changes nothing): a form, each button a language named in itself. */}
        <form method="post" action={`${view.base}/language`} className="mt-4 flex flex-wrap gap-2">
          {choices.languages.map(({ locale, name }) => (
            <button
              key={locale}
              type="submit"
              name="locale"
              value={locale}
              lang={locale}
              aria-pressed={locale === view.locale}
              className={cn(
                buttonVariants({ variant: locale === view.locale ? 'default' : 'outline', size: 'sm' }),
                locale === view.locale && 'pointer-events-none',
              )}
            >
              {name}
            </button>
          ))}
        </form>
      </Card>

      <Card id="data" heading={content.data.heading}>
        <p className={text}>{content.data.text}</p>
        <a href={`${view.base}/data.json`} download className={cn(buttonVariants({ variant: 'outline' }), 'mt-4')}>
          <SvgIcon icon={Download} className="size-5" />
          {content.data.button}
        </a>
      </Card>

      <Card id="emails" heading={content.emails.heading}>
        <p className={text}>{view.subscribed ? content.emails.subscribed : content.emails.unsubscribed}</p>
        <form method="post" action={`${view.base}/${view.subscribed ? 'unsubscribe' : 'resubscribe'}`}>
          <Button type="submit" variant="outline" className="mt-4">
            {view.subscribed ? <SvgIcon icon={MailX} className="size-5" /> : null}
            {view.subscribed ? content.emails.stop : content.emails.restart}
          </Button>
        </form>
      </Card>

      <Card id="delete" heading={content.remove.heading}>
        <p className={text}>{content.remove.text}</p>
        <form method="post" action={`${view.base}/delete`}>
          <Button type="submit" variant="outline" className="mt-4">
            <SvgIcon icon={Trash2} className="size-5" />
            {content.remove.button}
          </Button>
        </form>
      </Card>
    </Frame>
  )
}

/**
 * Into the app (docs/decisions/022-into-the-app.md): what happens to the profile at launch, the
 * phone they use (their {{store_url}} follows it), their app link once a campaign made it, and when
 * the app took the profile.
 */
function AppCard({ view, content }: { view: VisitorView; content: VisitorContent }) {
  const copy = content.app
  const { app } = view
  const claimedOn = app.claimedAt
    ? new Intl.DateTimeFormat(view.locale === 'en' ? 'en-GB' : view.locale, { dateStyle: 'long', timeZone: 'UTC' }).format(
        new Date(app.claimedAt),
      )
    : null
  return (
    <Card id="app" heading={copy.heading}>
      <p className={text}>{copy.text}</p>
      {claimedOn ? (
        <p className="mt-3 flex items-center gap-2 font-medium text-emerald-800 dark:text-emerald-300">
          <SvgIcon icon={CircleCheck} className="size-5 shrink-0" />
          {copy.claimed(claimedOn)}
        </p>
      ) : app.link ? (
        <>
          <p id="app-link-label" className="mt-4 text-sm font-medium text-stone-900 dark:text-stone-50">
            {copy.linkLabel}
          </p>
          <p className="mt-1 rounded-xl border border-stone-300 bg-stone-50 px-4 py-3 font-mono text-sm break-all dark:border-stone-600 dark:bg-stone-950">
            <a href={app.link} aria-labelledby="app-link-label" className="text-brand-800 underline underline-offset-4 dark:text-brand-300">
              {app.link}
            </a>
          </p>
          <p className="mt-2 text-sm text-stone-700 dark:text-stone-300">{copy.linkText}</p>
        </>
      ) : null}
      <form method="post" action={`${view.base}/phone`} className="mt-5 grid gap-4">
        <fieldset>
          <legend className={label}>{copy.phone}</legend>
          <p id="phone-hint" className="mt-1 text-sm text-stone-600 dark:text-stone-400">
            {copy.phoneHint}
          </p>
          <div className="mt-2 grid gap-2 sm:grid-cols-3">
            {PLATFORMS.map((platform) => (
              <label key={platform} className={choiceClass}>
                <input
                  type="radio"
                  name="platform"
                  value={platform}
                  required
                  defaultChecked={app.platform === platform}
                  aria-describedby="phone-hint"
                  className="size-4 accent-brand-700"
                />
                {copy.phones[platform]}
              </label>
            ))}
          </div>
        </fieldset>
        <div>
          <Button type="submit" variant="outline">
            {copy.save}
          </Button>
        </div>
      </form>
    </Card>
  )
}

/**
 * One side of the meter, for the eye: the sentence above it says the same for everyone. `have` is
 * the public figure (a band's lower bound, 0 when not shown): an exact count would show in the width.
 */
function MeterBar({ label, have, want }: { label: string; have: number; want: number }) {
  const percent = barPercent(have, want)
  return (
    <div className="grid grid-cols-[5.5rem_1fr] items-center gap-3 text-sm text-stone-700 dark:text-stone-300">
      <span>{label}</span>
      <span className="h-3 overflow-hidden rounded-full bg-stone-200 dark:bg-stone-700">
        <span className="block h-full rounded-full bg-brand-600 dark:bg-brand-400" style={{ width: `${percent}%` }} />
      </span>
    </div>
  )
}

/**
 * Their country's launch meter, and the link that moves it: shown once the address is confirmed,
 * as selectable text with e-mail and WhatsApp links (no script needed), and Copy and Share buttons
 * that the page's small script shows where the browser can do them (web/visitor/invite.ts).
 */
function LaunchCard({
  view,
  content,
  countryName,
}: {
  view: VisitorView
  content: VisitorContent
  countryName: (code: CountryCode) => string
}) {
  const { meter, invite } = view
  const country = meter ? countryName(meter.country) : null
  const copy = content.launch
  return (
    <Card id="launch" heading={copy.heading}>
      <p className={text}>{copy.text}</p>
      {meter && country ? <Meter meter={meter} country={country} content={content} /> : null}
      {country && view.breedMeters.length > 0 ? <BreedMeters meters={view.breedMeters} country={country} content={content} /> : null}
      {meter ? null : (
        <p className={text}>
          {copy.askCountry}{' '}
          <a href="#country" className="font-semibold text-brand-800 underline underline-offset-4 dark:text-brand-300">
            {copy.chooseCountry}
          </a>
        </p>
      )}
      <h3 className="mt-6 text-lg font-semibold text-stone-900 dark:text-stone-50">{content.invite.heading}</h3>
      {invite ? <Invite invite={invite} content={content} /> : <p className={text}>{content.invite.confirmFirst}</p>}
    </Card>
  )
}

function Meter({ meter, country, content }: { meter: PublicCountryMeter; country: string; content: VisitorContent }) {
  const copy = content.launch
  return (
    <div className="mt-4 grid gap-2">
      <p className="font-semibold text-stone-900 dark:text-stone-50">{copy.meter(country, meter)}</p>
      <div aria-hidden="true" className="grid gap-2">
        <MeterBar label={copy.breeders} have={meter.breeders ?? 0} want={meter.target.breeders} />
        <MeterBar label={copy.owners} have={meter.owners ?? 0} want={meter.target.owners} />
      </div>
      {meter.ready ? (
        <p className="flex items-center gap-2 font-medium text-emerald-800 dark:text-emerald-300">
          <SvgIcon icon={CircleCheck} className="size-5 shrink-0" />
          {copy.ready}
        </p>
      ) : null}
    </div>
  )
}

/** Their breeds' meters in their country: the sentence says it all; the bars are for the eye. */
function BreedMeters({ meters, country, content }: { meters: VisitorBreedMeter[]; country: string; content: VisitorContent }) {
  const copy = content.launch
  // One line for the target when every breed has the same, else one under each breed.
  const same = meters.every((m) => m.target.studs === meters[0]?.target.studs && m.target.dams === meters[0]?.target.dams)
  return (
    <div id="breed-meters" className="mt-6 grid gap-4">
      <h3 className="text-lg font-semibold text-stone-900 dark:text-stone-50">{copy.breedHeading(country)}</h3>
      {meters.map((meter) => (
        <div key={meter.breed} className="grid gap-2">
          <p className="font-medium text-stone-900 dark:text-stone-50">{copy.breedMeter(meter)}</p>
          <div aria-hidden="true" className="grid gap-2">
            <MeterBar label={copy.studs} have={meter.studs ?? 0} want={meter.target.studs} />
            <MeterBar label={copy.dams} have={meter.dams ?? 0} want={meter.target.dams} />
          </div>
          {meter.ready ? (
            <p className="flex items-center gap-2 font-medium text-emerald-800 dark:text-emerald-300">
              <SvgIcon icon={CircleCheck} className="size-5 shrink-0" />
              {copy.breedReady(meter.name)}
            </p>
          ) : null}
          {same ? null : <p className="text-sm text-stone-600 dark:text-stone-400">{copy.breedTarget(meter.target)}</p>}
        </div>
      ))}
      {same && meters[0] ? <p className="text-sm text-stone-600 dark:text-stone-400">{copy.breedTarget(meters[0].target)}</p> : null}
    </div>
  )
}

function Invite({ invite, content }: { invite: NonNullable<VisitorView['invite']>; content: VisitorContent }) {
  const copy = content.invite
  const message = `${copy.message} ${invite.link}`
  const small = cn(buttonVariants({ variant: 'outline', size: 'sm' }))
  return (
    <>
      <p className={text}>{copy.text}</p>
      <p id="invite-link-label" className="mt-4 text-sm font-medium text-stone-900 dark:text-stone-50">
        {copy.linkLabel}
      </p>
      <p
        aria-labelledby="invite-link-label"
        className="mt-1 rounded-xl border border-stone-300 bg-stone-50 px-4 py-3 font-mono text-sm break-all text-stone-900 select-all dark:border-stone-600 dark:bg-stone-950 dark:text-stone-50"
      >
        {invite.link}
      </p>
      <div className="mt-3 flex flex-wrap gap-2">
        <button type="button" hidden data-copy={invite.link} data-done={copy.copied} className={small}>
          <SvgIcon icon={Copy} className="size-4" />
          {copy.copy}
        </button>
        <button type="button" hidden data-share={invite.link} data-title={copy.mailSubject} data-text={copy.message} className={small}>
          <SvgIcon icon={Share2} className="size-4" />
          {copy.share}
        </button>
        <a href={`mailto:?subject=${encodeURIComponent(copy.mailSubject)}&body=${encodeURIComponent(message)}`} className={small}>
          <SvgIcon icon={Mail} className="size-4" />
          {copy.email}
        </a>
        <a href={`https://wa.me/?text=${encodeURIComponent(message)}`} target="_blank" rel="noopener noreferrer" className={small}>
          <SvgIcon icon={MessageCircle} className="size-4" />
          {copy.whatsapp}
        </a>
      </div>
      <p id="invite-status" role="status" className="mt-2 min-h-5 text-sm text-stone-700 dark:text-stone-300" />
      <p className="mt-2 font-medium text-stone-900 dark:text-stone-50">{copy.counts(invite.joined, invite.confirmed)}</p>
    </>
  )
}

function ConfirmDelete({ view, content, brand }: { view: VisitorView; content: VisitorContent; brand: string }) {
  return (
    <Frame brand={brand}>
      <h1 className="text-3xl font-extrabold tracking-tight text-stone-900 dark:text-stone-50">{content.remove.confirmHeading}</h1>
      <p className="mt-3 text-lg break-words text-stone-700 dark:text-stone-300">{view.email}</p>
      <p className={text}>{content.remove.confirmText}</p>
      <form method="post" action={`${view.base}/delete`} className="mt-6 flex flex-wrap items-center gap-4">
        <input type="hidden" name="confirm" value="yes" />
        <Button type="submit" variant="danger">
          <SvgIcon icon={Trash2} className="size-5" />
          {content.remove.confirm}
        </Button>
        <a href={view.base} className={buttonVariants({ variant: 'outline' })}>
          {content.remove.cancel}
        </a>
      </form>
    </Frame>
  )
}

export function VisitorGonePage({ why, content, brand }: { why: VisitorGone; content: VisitorContent; brand: string }) {
  const copy = content.gone[why]
  return (
    <Frame brand={brand}>
      <h1 className="text-3xl font-extrabold tracking-tight text-stone-900 dark:text-stone-50">{copy.heading}</h1>
      <p className={text}>{copy.text}</p>
      <a href="/" className={cn(buttonVariants(), 'mt-6')}>
        {content.home}
      </a>
    </Frame>
  )
}
