// The operator's own language, in the header (docs/decisions/027-the-back-office-in-six-languages.md):
// each language named as its speakers write it, no flags, a native select (keyboard and screen
// reader as the browser gives them) and a button. Changing keeps it for this operator alone, then
// loads the page again in it: the page carries one language's words at a time.
import { type FormEvent, useState } from 'react'
import { Button } from '../components/ui/button'
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
  const [chosen, setChosen] = useState<Locale>(copy.locale)
  const [saving, setSaving] = useState(false)
  // Saved by the button, not by the select's change: Chromium fires a closed select's change at each
  // arrow key, which would reload the page in every language a keyboard passes on its way.
  async function change(event: FormEvent) {
    event.preventDefault()
    if (chosen === copy.locale) return
    setSaving(true)
    try {
      await api.setLanguage(chosen)
      window.location.reload()
    } catch (failure) {
      setSaving(false)
      onFailure(failure)
    }
  }
  return (
    <form className="flex items-center gap-2 text-sm text-stone-700" onSubmit={(event) => void change(event)}>
      <label className="flex items-center gap-2">
        <span>{copy.account.language}</span>
        <select
          value={chosen}
          disabled={saving}
          onChange={(event) => setChosen(event.target.value as Locale)}
          className="rounded-md border border-stone-300 bg-white px-2 py-1 text-sm text-stone-900 focus-visible:ring-4 focus-visible:ring-brand-200 focus-visible:outline-none"
        >
          {LOCALES.map((locale) => (
            <option key={locale} value={locale} lang={locale}>
              {ownName(locale)}
            </option>
          ))}
        </select>
      </label>
      <Button
        type="submit"
        variant="outline"
        size="sm"
        disabled={saving || chosen === copy.locale}
        aria-label={copy.account.languageChangeLabel}
      >
        {copy.account.languageChange}
      </Button>
    </form>
  )
}
