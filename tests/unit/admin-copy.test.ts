// The admin page's sentences that carry numbers read right for one as for many.
import { describe, expect, it } from 'vitest'
import { adminContent } from '../../web/admin/content'

describe('admin copy', () => {
  it('says "1 sign-up" for one and "sign-ups" for more', () => {
    expect(adminContent.demand.totals(1, 1, 0)).toBe('1 sign-up: 1 confirmed, 0 stopped e-mails (left out below).')
    expect(adminContent.demand.totals(1_200, 3, 2)).toBe('1,200 sign-ups: 3 confirmed, 2 stopped e-mails (left out below).')
  })
})
