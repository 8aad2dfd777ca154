// The phone a request's user agent names: all a join keeps of its agent (docs/decisions/022-into-the-app.md).
import type { Platform } from '../../contract/app.js'

/**
 * `ios` for an iPhone, iPad or iPod, `android` for Android, `other` for anything else (a desktop, no
 * agent at all). An iPad asking for desktop sites says "Macintosh" and is `other`: its person can
 * say otherwise on their page.
 */
export function platformOf(userAgent: string | undefined): Platform {
  if (userAgent === undefined) return 'other'
  if (/\b(iPhone|iPad|iPod)\b/.test(userAgent)) return 'ios'
  // Windows Phone's agent names Android too, to be served Android's pages.
  if (/\bAndroid\b/i.test(userAgent) && !/\bWindows Phone\b/i.test(userAgent)) return 'android'
  return 'other'
}
