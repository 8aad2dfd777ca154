// Partners (docs/partners.md): the clubs and kennels that carry the waitlist on their own sites,
// each with its key, origins and counts (sign-ups, and the confirmed it is credited with), and its
// people per country and per breed, exact: the team's view. Owners and editors add, change,
// disable and give new keys; every role reads. The three snippets to paste come in any language.
import { type FormEvent, useEffect, useState } from 'react'
import { LOCALES, type Locale } from '../../../../contract/locales'
import type { Partner, PartnerChange, PartnerDetail, PartnerSnippets } from '../../../../contract/partners'
import { Button } from '../../../components/ui/button'
import { Input } from '../../../components/ui/input'
import type { AdminApi } from '../../api'
import { adminContent } from '../../content'
import { useAction, useLoaded } from '../../hooks'
import { ActionOutcome } from '../../outcome'
import { useAdmin } from '../../session'
import { TableRegion, td } from '../../table'
import { BreedField, useBreedNames } from '../breeds/breed-field'

const copy = adminContent.partners
const loadPartners = (api: AdminApi) => api.partners()
/** Refusals whose reason is said beside the form: a wrong field (400). */
const REFUSALS_SAID = [400] as const
const number = adminContent.format.number

/** The fields of a partner's form, as the API takes them (empty optional fields clear). */
function fieldsOf(form: HTMLFormElement): PartnerChange {
  const data = new FormData(form)
  const text = (name: string) => String(data.get(name) ?? '').trim()
  return {
    name: text('name'),
    origins: text('origins')
      .split(/\s+/)
      .filter((origin) => origin !== ''),
    thanksUrl: text('thanksUrl') || null,
    breed: text('breed') || null,
    country: text('country') || null,
  }
}

/** Name, origins, thanks URL, breed and country: to add a partner, or to change one (`partner`). */
function PartnerFields({ idPrefix, partner }: { idPrefix: string; partner?: Partner }) {
  const names = useBreedNames()
  const field = (name: string) => `${idPrefix}-${name}`
  return (
    <>
      <label htmlFor={field('name')} className="text-sm text-stone-700">
        {copy.name}
      </label>
      <Input id={field('name')} name="name" required maxLength={100} defaultValue={partner?.name} />
      <label htmlFor={field('origins')} className="text-sm text-stone-700">
        {copy.origins}
      </label>
      <textarea
        id={field('origins')}
        name="origins"
        required
        rows={2}
        defaultValue={partner?.origins.join('\n')}
        spellCheck={false}
        className="w-full rounded-xl border border-stone-300 bg-white px-4 py-3 font-mono text-sm text-stone-900 shadow-sm focus-visible:border-brand-600 focus-visible:ring-4 focus-visible:ring-brand-200 focus-visible:outline-none"
      />
      <label htmlFor={field('thanks')} className="text-sm text-stone-700">
        {copy.thanksUrl}
      </label>
      <Input id={field('thanks')} name="thanksUrl" type="url" maxLength={2048} defaultValue={partner?.thanksUrl ?? ''} />
      <p className="text-sm text-stone-700" aria-hidden="true">
        {copy.breed}
      </p>
      <BreedField names={names} label={copy.breed} name="breed" required={false} initial={partner?.breedName ?? ''} />
      <label htmlFor={field('country')} className="text-sm text-stone-700">
        {copy.country}
      </label>
      <Input
        id={field('country')}
        name="country"
        maxLength={2}
        autoCapitalize="characters"
        className="w-24"
        defaultValue={partner?.country ?? ''}
      />
    </>
  )
}

/** A partner's people per country and per breed, and its snippets: loaded when opened. */
function Details({ partner, onChange }: { partner: Partner; onChange: (run: () => Promise<void>, done?: string) => Promise<void> }) {
  const { api, can, onFailure } = useAdmin()
  const [open, setOpen] = useState(false)
  const [detail, setDetail] = useState<PartnerDetail | null>(null)
  // The snippet's language: the operator's unless chosen (a Polish club's volunteer, Polish).
  const [locale, setLocale] = useState<Locale>(adminContent.locale)
  const [snippets, setSnippets] = useState<PartnerSnippets | null>(null)
  useEffect(() => {
    if (!open) return
    let current = true
    Promise.all([api.partner(partner.id), api.partnerSnippets(partner.id, locale)]).then(
      ([fresh, pasted]) => {
        if (!current) return
        setDetail(fresh)
        setSnippets(pasted)
      },
      (failure: unknown) => current && onFailure(failure),
    )
    return () => {
      current = false
    }
  }, [api, onFailure, open, partner, locale])

  async function save(event: FormEvent<HTMLFormElement>) {
    event.preventDefault()
    const change = fieldsOf(event.currentTarget)
    await onChange(async () => void (await api.changePartner(partner.id, change)), copy.changed)
  }

  return (
    <details className="mt-3" onToggle={(event) => setOpen(event.currentTarget.open)}>
      <summary className="cursor-pointer text-sm font-semibold text-stone-700">{copy.details}</summary>
      {detail ? (
        <div className="mt-2 grid gap-4 md:grid-cols-2">
          <TableRegion
            caption={copy.countriesCaption(partner.name)}
            columns={[
              { label: copy.columns.country },
              { label: copy.columns.signups, numeric: true },
              { label: copy.columns.confirmed, numeric: true },
            ]}
            empty={detail.countries.length === 0 ? copy.noneYet : null}
          >
            {detail.countries.map((row) => (
              <tr key={row.country ?? ''} className="border-t border-stone-200">
                <th scope="row" className={`${td} font-medium`}>
                  {row.country === null ? copy.noCountry : adminContent.format.country(row.country)}
                </th>
                <td className={`${td} text-right`}>{number(row.signups)}</td>
                <td className={`${td} text-right`}>{number(row.confirmed)}</td>
              </tr>
            ))}
          </TableRegion>
          <TableRegion
            caption={copy.breedsCaption(partner.name)}
            columns={[
              { label: copy.columns.breed },
              { label: copy.columns.signups, numeric: true },
              { label: copy.columns.confirmed, numeric: true },
            ]}
            empty={detail.breeds.length === 0 ? copy.noneYet : null}
          >
            {detail.breeds.map((row) => (
              <tr key={`${row.id ?? ''}|${row.name}`} className="border-t border-stone-200">
                <th scope="row" className={`${td} font-medium`}>
                  {row.name}
                </th>
                <td className={`${td} text-right`}>{number(row.signups)}</td>
                <td className={`${td} text-right`}>{number(row.confirmed)}</td>
              </tr>
            ))}
          </TableRegion>
        </div>
      ) : null}
      <h3 className="mt-4 font-semibold text-stone-900">{copy.snippets}</h3>
      <label htmlFor={`partner-${partner.id}-language`} className="mt-2 block text-sm text-stone-700">
        {copy.snippetLanguage}
      </label>
      <select
        id={`partner-${partner.id}-language`}
        value={locale}
        onChange={(event) => setLocale(event.currentTarget.value as Locale)}
        className="mt-1 rounded-lg border border-stone-300 bg-white px-3 py-2 text-stone-900"
      >
        {LOCALES.map((code) => (
          <option key={code} value={code}>
            {code}
          </option>
        ))}
      </select>
      {snippets
        ? (['script', 'iframe', 'form'] as const).map((way) => (
            <div key={way} className="mt-3">
              <label htmlFor={`partner-${partner.id}-${way}`} className="block text-sm text-stone-700">
                {copy.snippet[way]}
              </label>
              <textarea
                id={`partner-${partner.id}-${way}`}
                readOnly
                rows={way === 'form' ? 7 : 2}
                value={snippets[way]}
                onFocus={(event) => event.currentTarget.select()}
                spellCheck={false}
                wrap="off"
                className="mt-1 w-full rounded-xl border border-stone-300 bg-stone-50 px-3 py-2 font-mono text-xs text-stone-900"
              />
            </div>
          ))
        : null}
      {can('partners:manage') ? (
        <form onSubmit={(event) => void save(event)} aria-label={`${copy.edit}: ${partner.name}`} className="mt-4 grid gap-2">
          <PartnerFields idPrefix={`partner-${partner.id}`} partner={partner} />
          <div>
            <Button type="submit" variant="outline">
              {copy.saveChange}
            </Button>
          </div>
        </form>
      ) : null}
    </details>
  )
}

export function PartnersView() {
  const { api, can } = useAdmin()
  const { data: partners, reload } = useLoaded(loadPartners)
  const { notice, problem, act: change } = useAction(reload, REFUSALS_SAID)
  const manage = can('partners:manage')

  async function add(event: FormEvent<HTMLFormElement>) {
    event.preventDefault()
    const form = event.currentTarget
    const fields = fieldsOf(form)
    await change(
      async () => {
        await api.addPartner({ ...fields, name: fields.name ?? '', origins: fields.origins ?? [] })
        form.reset()
      },
      copy.added(fields.name ?? ''),
    )
  }

  return (
    <section aria-labelledby="partners-heading" className="rounded-2xl bg-white p-6 shadow-sm">
      <h2 id="partners-heading" className="text-sm font-semibold text-stone-600 uppercase">
        {copy.heading}
      </h2>
      <p className="mt-2 text-sm text-stone-700">{copy.intro}</p>
      <ActionOutcome notice={notice} problem={problem} />
      {partners && partners.length === 0 ? <p className="mt-4 text-stone-600">{copy.none}</p> : null}
      <ul className="mt-2 divide-y divide-stone-200">
        {partners?.map((partner) => (
          <li key={partner.id} className="py-4">
            <p className="font-medium text-stone-900">
              {partner.name}
              {partner.disabled ? <span className="ml-2 text-sm font-normal text-stone-600">({copy.disabledTag})</span> : null}
            </p>
            <p className="mt-1 text-sm text-stone-700">
              {[copy.counts(partner.signups, partner.confirmed), copy.meterOf(partner.breedName, partner.country)].join(' · ')}
            </p>
            <p className="mt-1 text-sm break-all text-stone-600">{partner.origins.join(', ')}</p>
            <label htmlFor={`partner-${partner.id}-key`} className="sr-only">
              {copy.key(partner.name)}
            </label>
            <Input
              id={`partner-${partner.id}-key`}
              readOnly
              value={partner.key}
              className="mt-2 max-w-md font-mono text-sm"
              onFocus={(event) => event.currentTarget.select()}
            />
            {manage ? (
              <div className="mt-2 flex flex-wrap gap-2">
                <Button
                  variant="outline"
                  size="sm"
                  onClick={() => {
                    if (window.confirm(copy.confirmRotate(partner.name)))
                      void change(async () => void (await api.rotatePartnerKey(partner.id)), copy.rotated(partner.name))
                  }}
                >
                  {copy.rotate}
                </Button>
                <Button
                  variant="outline"
                  size="sm"
                  onClick={() => void change(async () => void (await api.changePartner(partner.id, { disabled: !partner.disabled })))}
                >
                  {partner.disabled ? copy.enable : copy.disable}
                </Button>
              </div>
            ) : null}
            <Details partner={partner} onChange={change} />
          </li>
        ))}
      </ul>
      {manage ? (
        <form
          onSubmit={(event) => void add(event)}
          aria-labelledby="partner-add-heading"
          className="mt-6 grid gap-2 rounded-xl border border-stone-200 p-4"
        >
          <h3 id="partner-add-heading" className="font-semibold text-stone-900">
            {copy.add}
          </h3>
          <PartnerFields idPrefix="partner-new" />
          <div>
            <Button type="submit">{copy.save}</Button>
          </div>
        </form>
      ) : null}
    </section>
  )
}
