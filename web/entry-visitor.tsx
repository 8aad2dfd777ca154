// The render module of the visitor's pages (dist/visitor/render.js): the server loads it at start
// and renders each page with it, with no script in the page. Built by scripts/build.mjs.
import breedList from 'dog-breeds/dog-breeds.json'
import { renderToStaticMarkup } from 'react-dom/server'
import { COUNTRY_CODES } from '../contract/countries'
import type { VisitorRender } from '../contract/visitor'
import { site } from './site'
import { visitorContent as content } from './visitor/content'
import { type Choices, VisitorGonePage, VisitorPage } from './visitor/page'

const countryNames = new Intl.DisplayNames(['en'], { type: 'region' })
const choices: Choices = {
  breeds: [...new Set(breedList.map((breed) => breed.name))].sort((a, b) => a.localeCompare(b, 'en')),
  countries: COUNTRY_CODES.map((code) => ({ code, name: countryNames.of(code) ?? code })).sort((a, b) =>
    a.name.localeCompare(b.name, 'en'),
  ),
}

export const visitor: VisitorRender = {
  site: { productName: site.productName, supportEmail: site.supportEmail },
  page: (view, error) => ({
    title: content.title,
    html: renderToStaticMarkup(<VisitorPage view={view} content={content} choices={choices} brand={site.productName} error={error} />),
  }),
  gone: (why) => ({
    title: content.gone[why].title,
    html: renderToStaticMarkup(<VisitorGonePage why={why} content={content} brand={site.productName} />),
  }),
}
