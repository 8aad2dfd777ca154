// The visitor's own page: confirm, tell us about you, download, stop e-mails, delete. Plain forms
// that post and come back (the server redirects after each), so it works without any script; the
// page carries none. Rendered by the server through the build's render module (entry-visitor.tsx).
import { CircleCheck, Download, MailX, PawPrint, Trash2 } from 'lucide-react'
import type { ReactNode } from 'react'
import type { CountryCode } from '../../contract/countries'
import { MAX_BREED_LENGTH, MAX_BREEDS, ROLES, type VisitorGone, type VisitorView } from '../../contract/visitor'
import { Button, buttonVariants } from '../components/ui/button'
import { Input } from '../components/ui/input'
import { cn } from '../lib/cn'
import type { VisitorContent } from './content'

export interface Choices {
  /** Recognised breed names, offered as the visitor types. */
  breeds: readonly string[]
  /** Country codes with their names, in the order of the names. */
  countries: readonly { code: CountryCode; name: string }[]
}

function Frame({ brand, children }: { brand: string; children: ReactNode }) {
  return (
    <div className="min-h-screen bg-stone-50 dark:bg-stone-950">
      <header className="bg-stone-950 text-white">
        <div className="mx-auto flex max-w-2xl items-center gap-2 px-5 py-6 text-xl font-bold sm:px-8">
          <span className="grid size-9 place-items-center rounded-xl bg-brand-600">
            <PawPrint aria-hidden="true" className="size-5" />
          </span>
          {brand}
        </div>
      </header>
      <main className="mx-auto max-w-2xl px-5 pt-8 pb-16 sm:px-8">{children}</main>
    </div>
  )
}

function Card({ id, heading, children }: { id: string; heading: string; children: ReactNode }) {
  const headingId = `${id}-heading`
  return (
    <section
      id={id}
      aria-labelledby={headingId}
      className="mt-6 rounded-2xl border border-stone-200 bg-white p-6 shadow-sm dark:border-stone-800 dark:bg-stone-900"
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
  const joinedOn = new Intl.DateTimeFormat('en-GB', { dateStyle: 'long', timeZone: 'UTC' }).format(new Date(view.joinedAt))
  const { profile } = view
  const breeds = Array.from({ length: MAX_BREEDS }, (_, i) => profile.breeds[i] ?? '')
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
            <CircleCheck aria-hidden="true" className="size-5 shrink-0" />
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

      <Card id="profile" heading={content.profile.heading}>
        <p className={text}>{content.profile.text}</p>
        <form method="post" action={`${view.base}/profile`} className="mt-5 grid gap-6">
          <fieldset>
            <legend className={label}>{content.profile.role}</legend>
            <div className="mt-2 grid gap-2 sm:grid-cols-2">
              {[...ROLES, '' as const].map((role) => (
                <label
                  key={role || 'none'}
                  className="flex items-center gap-3 rounded-xl border border-stone-300 px-4 py-3 text-stone-900 has-checked:border-brand-700 has-checked:bg-brand-50 dark:border-stone-600 dark:text-stone-50 dark:has-checked:border-brand-400 dark:has-checked:bg-brand-950"
                >
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
            <div className="mt-2 grid gap-2 sm:grid-cols-2">
              {breeds.map((breed, i) => (
                <div key={i}>
                  <label htmlFor={`breed-${i + 1}`} className="sr-only">
                    {content.profile.breedLabel(i + 1)}
                  </label>
                  <Input
                    id={`breed-${i + 1}`}
                    name="breed"
                    list="breed-names"
                    defaultValue={breed}
                    maxLength={MAX_BREED_LENGTH}
                    autoComplete="off"
                    aria-describedby="breeds-hint"
                    placeholder={content.profile.breedLabel(i + 1)}
                  />
                </div>
              ))}
            </div>
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
            <select
              id="country"
              name="country"
              defaultValue={profile.country ?? ''}
              className="mt-2 h-12 w-full rounded-xl border border-stone-300 bg-white px-3 text-base text-stone-900 focus-visible:border-brand-600 focus-visible:ring-4 focus-visible:ring-brand-200 focus-visible:outline-none"
            >
              <option value="">{content.profile.noCountry}</option>
              {choices.countries.map(({ code, name }) => (
                <option key={code} value={code}>
                  {name}
                </option>
              ))}
            </select>
          </div>
          <div>
            <Button type="submit">{content.profile.save}</Button>
          </div>
        </form>
      </Card>

      <Card id="data" heading={content.data.heading}>
        <p className={text}>{content.data.text}</p>
        <a href={`${view.base}/data.json`} download className={cn(buttonVariants({ variant: 'outline' }), 'mt-4')}>
          <Download aria-hidden="true" className="size-5" />
          {content.data.button}
        </a>
      </Card>

      <Card id="emails" heading={content.emails.heading}>
        <p className={text}>{view.subscribed ? content.emails.subscribed : content.emails.unsubscribed}</p>
        <form method="post" action={`${view.base}/${view.subscribed ? 'unsubscribe' : 'resubscribe'}`}>
          <Button type="submit" variant="outline" className="mt-4">
            {view.subscribed ? <MailX aria-hidden="true" className="size-5" /> : null}
            {view.subscribed ? content.emails.stop : content.emails.restart}
          </Button>
        </form>
      </Card>

      <Card id="delete" heading={content.remove.heading}>
        <p className={text}>{content.remove.text}</p>
        <form method="post" action={`${view.base}/delete`}>
          <Button type="submit" variant="outline" className="mt-4">
            <Trash2 aria-hidden="true" className="size-5" />
            {content.remove.button}
          </Button>
        </form>
      </Card>
    </Frame>
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
          <Trash2 aria-hidden="true" className="size-5" />
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
