// The back office's catalogues (docs/decisions/027-the-back-office-in-six-languages.md), one per
// language in i18next's JSON format, as the page's beside them: every word of the admin page, an
// operator's mails and the sign-in link's page. The server reads all six (locales/index.ts); the
// admin page loads only its operator's (web/admin/words.ts).
import type { ResourceKey } from 'i18next'
import type { Locale } from '../../contract/locales.js'
import de from './de.json' with { type: 'json' }
import en from './en.json' with { type: 'json' }
import es from './es.json' with { type: 'json' }
import fr from './fr.json' with { type: 'json' }
import it from './it.json' with { type: 'json' }
import pl from './pl.json' with { type: 'json' }

export const adminCatalogues: Record<Locale, ResourceKey> = { en, de, fr, es, it, pl }
