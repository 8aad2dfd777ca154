import { DEFAULT_LOCALE, firstLocaleOf, isLocale } from '../../contract/locales'
import { ADMIN_PAGE_PATH } from '../../contract/paths'
import './admin.css'
import { signInApi } from './api'
import { site } from '../site'
import { setAdminWords } from './content'
import { catalogueLoaders, wordsOf } from './words'

// Rendered in the browser only: the admin page is behind a token, there is nothing to prerender.
const root = document.getElementById('admin')
if (!root) throw new Error('admin.html has no #admin element')

// The page speaks its operator's language, else the browser's first of ours (before anyone signs
// in): that one catalogue is loaded, then the app, whose views read their words at their modules'
// top (docs/decisions/027-the-back-office-in-six-languages.md). Another language is another load.
// An invitation's page speaks the invitation's language, whoever opens it. This module holds no
// React: the app's chunk has it all, and nothing is split between the two.
// (The path as the app's router matches `/setup/:token`: a trailing slash, any case. A token is
// base64url, which no decoding changes.)
const setupToken = new RegExp(`^${ADMIN_PAGE_PATH}/setup/([^/]+)/?$`, 'i').exec(window.location.pathname)?.[1]
const [session, invitation] = await Promise.all([
  signInApi.session().catch(() => null),
  setupToken === undefined ? null : signInApi.setup(setupToken).catch(() => null),
])
const locale = [invitation?.locale, session?.locale].find(isLocale) ?? firstLocaleOf(navigator.languages) ?? DEFAULT_LOCALE
const words = wordsOf(await catalogueLoaders[locale](), locale)
setAdminWords(words)
document.documentElement.lang = locale
document.title = words.t('pageTitle', { product: site.productName })
const { mountAdmin } = await import('./app')
mountAdmin(root, session)
