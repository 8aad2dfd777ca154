// The typo hint's check (docs/requirements.md, "The page beyond the spec"): email-misspelled with
// the 100 commonest mail domains. Loaded when the visitor first focuses the e-mail field, so the
// page's script does not carry it; it runs in the browser only and sends nothing anywhere.

/** The address the visitor probably meant (`ada@gmial.com` → `ada@gmail.com`), or null. */
export type TypoCheck = (email: string) => string | null

let loading: Promise<TypoCheck> | undefined

export function loadTypoCheck(): Promise<TypoCheck> {
  loading ??= import('email-misspelled').then(
    ({ default: emailMisspelled, top100 }) => {
      const misspelling = emailMisspelled({ domains: top100 })
      return (email: string) => misspelling(email.trim())[0]?.corrected ?? null
    },
    (error: unknown) => {
      // Offline, say: no hint this time, another try on the next focus.
      loading = undefined
      throw error
    },
  )
  return loading
}
