// Build-time settings of the page. Vite inlines `import.meta.env.VITE_*` when it builds, so a
// deployment picks its backend and support address without touching code (README, Configuration).
import { JOIN_PATH } from '../contract/paths'

export interface Site {
  /** The page's public address (SITE_URL, no trailing slash): canonical link, share tags, sitemap. */
  siteUrl: string
  /** Shown in the title, the copy and the footer. */
  productName: string
  /** The address the Contact Support toast tells visitors to write to. */
  supportEmail: string
  /** Origin of the PostgREST backend; empty means the page's own origin (our server). */
  waitlistUrl: string
  /** Public anonymous key sent as `apikey`; empty sends none (our server without a key). */
  anonKey: string
  /**
   * Where the form posts without JavaScript: our server's form route (JOIN_PATH) when
   * it serves the page, undefined when the backend is elsewhere (a Supabase project has no such
   * route, so the page says JavaScript is needed).
   */
  formAction: string | undefined
}

const EMAIL = /^[^\s@]+@[^\s@]+$/

export function readSite(env: Record<string, string | undefined>): Site {
  const problems: string[] = []
  const productName = env.VITE_PRODUCT_NAME?.trim() || 'Kennect'
  const supportEmail = env.VITE_SUPPORT_EMAIL?.trim() || 'support@kennect.app'
  if (!EMAIL.test(supportEmail)) problems.push(`VITE_SUPPORT_EMAIL: expected an e-mail address, got "${supportEmail}"`)
  const waitlistUrl = (env.VITE_WAITLIST_URL?.trim() ?? '').replace(/\/+$/, '')
  if (waitlistUrl && !/^https?:\/\/[^/]+/.test(waitlistUrl)) {
    problems.push(`VITE_WAITLIST_URL: expected an http(s) origin, got "${waitlistUrl}"`)
  }
  const anonKey = env.VITE_WAITLIST_ANON_KEY?.trim() ?? ''
  const siteUrl = (env.SITE_URL?.trim() || 'http://localhost:3000').replace(/\/+$/, '')
  if (!/^https?:\/\/[^/?#\s]+(\/[^?#\s]*)?$/.test(siteUrl)) {
    problems.push(`SITE_URL: expected the page's http(s) address, such as https://kennect.app, got "${siteUrl}"`)
  }
  if (problems.length > 0) throw new Error(`Invalid site configuration:\n  ${problems.join('\n  ')}`)
  return { siteUrl, productName, supportEmail, waitlistUrl, anonKey, formAction: waitlistUrl ? undefined : JOIN_PATH }
}

// `import.meta.env` is undefined outside Vite (scripts run by tsx); the defaults apply there.
export const site: Site = readSite(import.meta.env ?? {})
