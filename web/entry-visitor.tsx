// The render module of the visitor's pages (dist/visitor/render.js): the server loads it at start
// and renders each page with it, in the sign-up's language. Built by scripts/build.mjs.
import { renderToStaticMarkup } from 'react-dom/server'
import type { BreedCatalogue } from '../contract/breeds'
import catalogue from '../contract/breeds.json'
import { COUNTRY_CODES } from '../contract/countries'
import { LOCALES, type Locale } from '../contract/locales'
import { languageName } from '../locales/index'
import type { VisitorRender } from '../contract/visitor'
import { site } from './site'
import { type VisitorContent, visitorContent } from './visitor/content'
import { type Choices, VisitorGonePage, VisitorPage } from './visitor/page'
import { AppLinkGonePage, AppLinkPage } from './visitor/app-page'
import type { EmbedRender } from '../contract/partners'
import { embedMeter, wordsIn } from './embed/content'
import { EmbedPage } from './embed/page'
import { embedCss, fillRules } from './embed/styles'

// The breeds offered are the catalogue's (contract/breeds.json), each by its name in the reader's
// language; country names are the reader's language's own too.
const breedsIn = (locale: Locale) =>
  [...new Set((catalogue as BreedCatalogue).breeds.map((breed) => breed.names[locale]))].sort((a, b) => a.localeCompare(b, locale))

/** Each language's words and choices, made once. */
const languages = new Map<Locale, { content: VisitorContent; choices: Choices }>(
  LOCALES.map((locale) => {
    const names = new Intl.DisplayNames([locale], { type: 'region' })
    const countries = COUNTRY_CODES.map((code) => ({ code, name: names.of(code) ?? code })).sort((a, b) =>
      a.name.localeCompare(b.name, locale),
    )
    const choices: Choices = {
      breeds: breedsIn(locale),
      countries,
      languages: LOCALES.map((other) => ({ locale: other, name: languageName(other) })),
    }
    return [locale, { content: visitorContent(locale), choices }]
  }),
)
const language = (locale: Locale) => {
  const found = languages.get(locale) ?? languages.get('en')
  if (!found) throw new Error('no English visitor page')
  return found
}

export const visitor: VisitorRender = {
  site: { productName: site.productName, supportEmail: site.supportEmail },
  page: (view, error) => {
    const { content, choices } = language(view.locale)
    return {
      title: content.title,
      html: renderToStaticMarkup(<VisitorPage view={view} content={content} choices={choices} brand={site.productName} error={error} />),
    }
  },
  gone: (why, locale) => {
    const { content } = language(locale)
    return {
      title: content.gone[why].title,
      html: renderToStaticMarkup(<VisitorGonePage why={why} content={content} brand={site.productName} />),
    }
  },
  app: (view) => {
    const { content } = language(view.locale)
    return {
      title: content.appLink.title,
      html: renderToStaticMarkup(<AppLinkPage view={view} content={content} brand={site.productName} />),
    }
  },
  appGone: (why, locale) => {
    const { content } = language(locale)
    return {
      title: content.appLink.gone[why].title,
      html: renderToStaticMarkup(<AppLinkGonePage why={why} content={content} brand={site.productName} />),
    }
  },
}

/** A partner's embed (docs/partners.md): its words, its meter's, and the iframe form's page. */
export const embed: EmbedRender = {
  words: wordsIn,
  meter: embedMeter,
  page: (view) => {
    const words = wordsIn(view.locale)
    const meter = view.meter ? embedMeter(view.meter, view.locale) : null
    // The page is the box alone, the iframe's whole width; its bars' widths are rules of its stylesheet.
    const css = `${embedCss(view.accent)}\nhtml,body{margin:0;background:transparent}\n.k-box{max-width:none}${fillRules(meter?.bars.map((bar) => bar.percent) ?? [])}`
    return {
      title: `${words.title} · ${site.productName}`,
      html: renderToStaticMarkup(<EmbedPage view={view} words={words} meter={meter} product={site.productName} />),
      css,
    }
  },
}
