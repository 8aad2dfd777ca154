// The operator's own language, in the header (docs/decisions/027-the-back-office-in-six-languages.md):
// each language named as its speakers write it, no flags, a native select (keyboard and screen
// reader as the browser gives them). Choosing one keeps it for this operator alone, then loads the
// page again in it: the page carries one language's words at a time.
import { useState } from 'react'
import { type Locale, LOCALES } from '../../contract/locales'
import { adminContent as copy } from './content'
import { useAdmin } from './session'

/** A language's name in itself, as it starts a menu item: "Deutsch", "Polski", "Français". */
export const ownName = (locale: Locale): string => {
  const name = new Intl.DisplayNames([locale], { type: 'language' }).of(locale) ?? locale
  return name.charAt(0).toLocaleUpperCase(locale) + name.slice(1)
}

export function LanguageMenu() {
  const { api, onFailure } = useAdmin()
  const [saving, setSaving] = useState(false)
  async function choose(locale: Locale) {
    setSaving(true)
    try {
      await api.setLanguage(locale)
      window.location.reload()
    } catch (failure) {
      setSaving(false)
      onFailure(failure)
    }
  }
  return (
    <label className="flex items-center gap-2 text-sm text-stone-700">
      <span>{copy.account.language}</span>
      <select
        value={copy.locale}
        disabled={saving}
        onChange={(event) => void choose(event.target.value as Locale)}
        className="rounded-md border border-stone-300 bg-white px-2 py-1 text-sm text-stone-900 focus-visible:ring-4 focus-visible:ring-brand-200 focus-visible:outline-none"
      >
        {LOCALES.map((locale) => (
          <option key={locale} value={locale} lang={locale}>
            {ownName(locale)}
          </option>
        ))}
      </select>
    </label>
  )
}
