// The admin page's sentences that carry numbers read right for one as for many.
import { describe, expect, it } from 'vitest'
import { adminContent } from '../support/admin-words'

describe('admin copy', () => {
  it('says "1 sign-up" for one and "sign-ups" for more', () => {
    expect(adminContent.demand.totals(1, 1, 0)).toBe('1 sign-up: 1 confirmed, 0 stopped e-mails (left out below).')
    expect(adminContent.demand.totals(1_200, 3, 2)).toBe('1,200 sign-ups: 3 confirmed, 2 stopped e-mails (left out below).')
  })

  it('says "1 recipient", and "a viewer" but "an editor" and "an owner"', () => {
    expect(adminContent.campaigns.recipients(1)).toBe('1 recipient')
    expect(adminContent.campaigns.send(1)).toBe('Send to 1 recipient')
    expect(adminContent.campaigns.send(0)).toBe('Send to 0 recipients')
    expect(adminContent.campaigns.recipients(1_200)).toBe('1,200 recipients')
    expect(adminContent.campaigns.confirmSend(1, 'Hi')).toBe('Send “Hi” to 1 recipient now?')
    expect(adminContent.setup.intro('editor')).toMatch(/^You are joining as an editor\./)
    expect(adminContent.setup.intro('owner')).toMatch(/^You are joining as an owner\./)
    expect(adminContent.setup.intro('viewer')).toMatch(/^You are joining as a viewer\./)
  })
})
