import { describe, expect, it } from 'vitest'
import { readAttribution } from '../../web/lib/attribution'

describe('readAttribution', () => {
  it('reads the campaign parameters and the referring host only', () => {
    expect(
      readAttribution(
        'https://kennect.app/?utm_source=dogshow&utm_medium=flyer&utm_campaign=spring&other=x',
        'https://www.breedclub.example/news/2026?member=42',
      ),
    ).toEqual({ utm_source: 'dogshow', utm_medium: 'flyer', utm_campaign: 'spring', referrer: 'www.breedclub.example' })
  })

  it('is empty for a direct visit, and ignores our own site and non-web referrers', () => {
    expect(readAttribution('https://kennect.app/', '')).toEqual({})
    expect(readAttribution('https://kennect.app/', 'https://kennect.app/#about')).toEqual({})
    expect(readAttribution('https://kennect.app/', 'android-app://com.example')).toEqual({})
    expect(readAttribution('https://kennect.app/?utm_source=%20%20', 'not a url')).toEqual({})
  })

  it('reads a well-formed invite code, and leaves out any other', () => {
    expect(readAttribution('https://kennect.app/?invite=Ab-3_xY9Ab-3_xY9Ab-3_x', '')).toEqual({ invite: 'Ab-3_xY9Ab-3_xY9Ab-3_x' })
    expect(readAttribution(`https://kennect.app/?invite=${'a'.repeat(65)}`, '')).toEqual({})
    expect(readAttribution('https://kennect.app/?invite=ab%20cd', '')).toEqual({})
    expect(readAttribution('https://kennect.app/?invite=', '')).toEqual({})
  })

  it('cuts values to the 200 characters the table takes', () => {
    expect(readAttribution(`https://kennect.app/?utm_campaign=${'x'.repeat(300)}`, '').utm_campaign).toHaveLength(200)
  })
})
