import { renderToString } from 'react-dom/server'
import { describe, expect, it } from 'vitest'
import { App } from '../../web/app'
import { content } from '../../web/content'
import { SECTION_HEADINGS } from '../support/sections'

// The prerender's output, checked without a browser: every section is there, in the order of docs/requirements.md#sections.
const html = renderToString(<App content={content} />)
const text = html
  .replace(/<[^>]+>/g, ' ')
  .replace(/&#x27;/g, "'")
  .replace(/&amp;/g, '&')
  .replace(/&quot;/g, '"')

describe('the prerendered page', () => {
  it('has the sections of the requirements in order', () => {
    const headings = [content.hero.headline, ...SECTION_HEADINGS, content.footer.tagline]
    const positions = headings.map((heading) => text.indexOf(heading))
    expect(positions.every((p) => p >= 0)).toBe(true)
    expect([...positions].sort((a, b) => a - b)).toEqual(positions)
  })

  it('names the four audiences, seven features, three steps and five trust claims', () => {
    expect(content.audiences.items).toHaveLength(4)
    expect(content.features.items).toHaveLength(7)
    expect(content.howItWorks.steps).toHaveLength(3)
    expect(content.trust.items).toHaveLength(5)
    for (const card of [...content.audiences.items, ...content.features.items, ...content.howItWorks.steps, ...content.trust.items]) {
      expect(text).toContain(card.title)
    }
  })

  it('renders the waitlist form with a labelled, required e-mail input', () => {
    expect(html).toContain(`id="${content.waitlist.id}"`)
    expect(html).toMatch(/<input[^>]*type="email"[^>]*required=""/)
    expect(html).toContain(`<label for="waitlist-email"`)
    expect(text).toContain(content.waitlist.submit)
  })

  it('renders the year of the build and no toast', () => {
    expect(text).toContain(content.footer.copyright.replace('{year}', String(__BUILD_YEAR__)))
    expect(html).not.toContain('data-variant=')
  })
})
