import type { WaitlistRow } from '../../server/store/index'

/** A sign-up row as the route would store it: the address, and attribution only where given. */
export const row = (email: string, extra: Partial<WaitlistRow> = {}): WaitlistRow => ({
  email,
  utm_source: null,
  utm_medium: null,
  utm_campaign: null,
  referrer: null,
  invite: null,
  locale: 'en',
  ...extra,
})
