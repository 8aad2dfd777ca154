import { describe, expect, it } from 'vitest'
import { readSite } from '../../web/site'

describe('readSite', () => {
  it('defaults to Kennect on its own origin without a key', () => {
    expect(readSite({})).toEqual({ productName: 'Kennect', supportEmail: 'support@kennect.app', waitlistUrl: '', anonKey: '', formAction: '/join' })
  })

  it('reads VITE_ variables and drops a trailing slash from the backend URL', () => {
    expect(
      readSite({ VITE_WAITLIST_URL: 'https://abc.supabase.co/', VITE_WAITLIST_ANON_KEY: 'k', VITE_SUPPORT_EMAIL: 'help@x.io' }),
    ).toEqual({ productName: 'Kennect', waitlistUrl: 'https://abc.supabase.co', anonKey: 'k', supportEmail: 'help@x.io', formAction: undefined })
  })

  it('names each wrong setting', () => {
    expect(() => readSite({ VITE_WAITLIST_URL: 'abc.supabase.co', VITE_SUPPORT_EMAIL: 'nobody' })).toThrow(
      /VITE_SUPPORT_EMAIL: .*"nobody"[\s\S]*VITE_WAITLIST_URL: .*"abc.supabase.co"/,
    )
  })
})
