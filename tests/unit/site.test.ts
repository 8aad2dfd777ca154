import { describe, expect, it } from 'vitest'
import { readSite } from '../../web/site'

describe('readSite', () => {
  it('defaults to Kennect on its own origin without a key', () => {
    expect(readSite({})).toEqual({
      siteUrl: 'http://localhost:3000',
      productName: 'Kennect',
      supportEmail: 'support@kennect.app',
      waitlistUrl: '',
      anonKey: '',
      formAction: '/join',
    })
  })

  it('reads VITE_ variables and drops a trailing slash from the backend URL', () => {
    expect(
      readSite({ VITE_WAITLIST_URL: 'https://abc.supabase.co/', VITE_WAITLIST_ANON_KEY: 'k', VITE_SUPPORT_EMAIL: 'help@x.io' }),
    ).toEqual({
      siteUrl: 'http://localhost:3000',
      productName: 'Kennect',
      waitlistUrl: 'https://abc.supabase.co',
      anonKey: 'k',
      supportEmail: 'help@x.io',
      formAction: undefined,
    })
  })

  it('reads SITE_URL, the public address, without its trailing slash', () => {
    expect(readSite({ SITE_URL: 'https://kennect.app/' }).siteUrl).toBe('https://kennect.app')
    expect(readSite({ SITE_URL: 'https://example.org/kennect' }).siteUrl).toBe('https://example.org/kennect')
  })

  it('names each wrong setting', () => {
    expect(() => readSite({ VITE_WAITLIST_URL: 'abc.supabase.co', VITE_SUPPORT_EMAIL: 'nobody', SITE_URL: 'kennect.app' })).toThrow(
      /VITE_SUPPORT_EMAIL: .*"nobody"[\s\S]*VITE_WAITLIST_URL: .*"abc.supabase.co"[\s\S]*SITE_URL: .*"kennect.app"/,
    )
    expect(() => readSite({ SITE_URL: 'https://kennect.app/?utm_source=x' })).toThrow(/SITE_URL/)
  })
})
