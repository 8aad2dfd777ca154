// A campaign's mail: the operator's Markdown (marked, with raw HTML shown as text) with its
// placeholders filled, in the product's template, with the recipient's own links and the one-click
// unsubscribe headers every mail has (compose.ts).
import { Marked } from 'marked'
import {
  byLanguage,
  type Localized,
  MAX_MARKDOWN_LENGTH,
  MAX_SUBJECT_LENGTH,
  type Placeholder,
  PLACEHOLDERS,
  placeholdersIn,
} from '../../contract/campaigns.js'
import { DEFAULT_LOCALE, LOCALES, type Locale } from '../../contract/locales.js'
import type { StoreUrls } from '../handoff/links.js'
import type { MailCopy } from './content.js'
import { layoutHtml, type MailLinks, type RenderedMail, textFooter } from './templates.js'

const escape = (text: string) =>
  text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] ?? c)

const BRAND = '#c2410c'

/** Markdown to mail HTML: inline styles (clients drop style sheets), and no HTML of the author's own. */
const markdown = new Marked({
  gfm: true,
  renderer: {
    html: ({ text }) => escape(text),
    paragraph({ tokens }) {
      return `<p style="margin:0 0 14px">${this.parser.parseInline(tokens)}</p>\n`
    },
    link({ href, tokens }) {
      const label = this.parser.parseInline(tokens)
      // Web and mail links only: a `javascript:` or `data:` link shows as its words.
      if (!/^(https?:|mailto:)/i.test(href)) return label
      return `<a href="${escape(href)}" style="color:${BRAND};font-weight:600">${label}</a>`
    },
    heading({ tokens, depth }) {
      const size = depth <= 2 ? 20 : 17
      return `<h${depth} style="margin:20px 0 8px;font-size:${size}px;line-height:1.3">${this.parser.parseInline(tokens)}</h${depth}>\n`
    },
  },
})

export interface CampaignLinks extends MailLinks {
  /** APP_STORE_URL, or the landing page while the app is not listed. */
  appStore: string
  /** The recipient's own app link, SITE_URL/app/<code>. */
  appLink: string
  /** The store for the recipient's phone (links.ts storeUrlFor). */
  storeUrl: string
}

/** The problems of a campaign's words, each naming its field; empty when it can be sent. */
export function campaignProblems(campaign: { subject: string; markdown: string }, stores: StoreUrls): string[] {
  const problems: string[] = []
  if (campaign.subject.trim() === '') problems.push('subject: must not be empty')
  if (campaign.subject.length > MAX_SUBJECT_LENGTH) problems.push(`subject: at most ${MAX_SUBJECT_LENGTH} characters`)
  if (/[\r\n]/.test(campaign.subject)) problems.push('subject: one line only')
  if (campaign.markdown.trim() === '') problems.push('markdown: must not be empty')
  if (campaign.markdown.length > MAX_MARKDOWN_LENGTH) problems.push(`markdown: at most ${MAX_MARKDOWN_LENGTH} characters`)
  for (const name of placeholdersIn(campaign.markdown)) {
    if (!(PLACEHOLDERS as readonly string[]).includes(name)) {
      problems.push(`markdown: unknown placeholder {{${name}}} (known: ${PLACEHOLDERS.map((p) => `{{${p}}}`).join(', ')})`)
    }
  }
  const used = placeholdersIn(campaign.markdown)
  if (used.includes('app_store_url') && stores.appStoreUrl === null) {
    problems.push('markdown: {{app_store_url}} needs APP_STORE_URL set on the server')
  }
  // An app link's page offers the stores: with neither set, it could offer nothing.
  for (const name of ['app_link', 'store_url'] as const)
    if (used.includes(name) && stores.appStoreUrl === null && stores.playStoreUrl === null)
      problems.push(`markdown: {{${name}}} needs APP_STORE_URL or PLAY_STORE_URL set on the server`)
  return problems
}

function fill(markdownText: string, links: CampaignLinks): string {
  const values: Record<Placeholder, string> = {
    my_page_url: links.page,
    app_link: links.appLink,
    store_url: links.storeUrl,
    app_store_url: links.appStore,
  }
  return markdownText.replace(/\{\{\s*([a-z_]+)\s*\}\}/g, (whole, name: string) => values[name as Placeholder] ?? whole)
}

/** The first words of the message, as the line inboxes show after the subject. */
function preheaderOf(text: string): string {
  const plain = text
    .replace(/\[([^\]]*)\]\([^)]*\)/g, '$1')
    .replace(/https?:\/\/\S+/g, '')
    .replace(/[#*_`>~-]+/g, ' ')
    .replace(/\s+/g, ' ')
    .trim()
  return plain.length > 110 ? `${plain.slice(0, 107).trimEnd()}…` : plain
}

/**
 * `unconfirmedImport`: the recipient came with an import and never confirmed (contract/imports.ts):
 * the mail says so, asks them to confirm with a button to their page, and its footer says why it came.
 */
export function renderCampaign(
  campaign: { subject: string; markdown: string },
  links: CampaignLinks,
  copy: MailCopy,
  unconfirmedImport = false,
): RenderedMail {
  const text = fill(campaign.markdown, links)
  const ask = unconfirmedImport ? copy.imported : null
  const footer = ask ? { ...copy.footer, why: ask.why } : copy.footer
  const asking = ask ? ask.paragraphs.map((p) => `<p style="margin:0 0 14px">${escape(p)}</p>`).join('\n') : ''
  return {
    subject: campaign.subject,
    html: layoutHtml({
      subject: campaign.subject,
      preheader: preheaderOf(text),
      heading: campaign.subject,
      bodyHtml: `${asking}${markdown.parse(text, { async: false })}`,
      ...(ask ? { button: { label: ask.button, href: links.page } } : {}),
      footer: { words: footer, links },
      product: copy.product,
      lang: copy.locale,
    }),
    text: `${ask ? `${ask.paragraphs.join('\n\n')}\n\n` : ''}${text.trimEnd()}\n\n${ask ? `${ask.linkIntro}\n${links.page}\n\n` : ''}${textFooter(footer, links)}`,
  }
}

/** A campaign's words per language: English, and any other language it was written in. */
export type CampaignWords = { en: { subject: string; markdown: string } } & Partial<Record<Locale, { subject: string; markdown: string }>>

/**
 * The words of a campaign as sent (each field a string, English, or an object keyed by language),
 * checked language by language: English is required, a language needs both a subject and a
 * message, and each problem names its field (`markdown.de: must not be empty`).
 */
export function campaignWords(
  campaign: { subject: Localized; markdown: Localized },
  stores: StoreUrls,
): { ok: true; words: CampaignWords } | { ok: false; problems: string[] } {
  const subjects = byLanguage(campaign.subject)
  const markdowns = byLanguage(campaign.markdown)
  const perLanguage = typeof campaign.subject !== 'string' || typeof campaign.markdown !== 'string'
  const problems: string[] = []
  const words: Partial<Record<Locale, { subject: string; markdown: string }>> = {}
  for (const locale of LOCALES) {
    const subject = subjects[locale]
    const markdown = markdowns[locale]
    if (subject === undefined && markdown === undefined && locale !== DEFAULT_LOCALE) continue
    const field = (name: 'subject' | 'markdown') => (perLanguage ? `${name}.${locale}` : name)
    if (subject === undefined)
      problems.push(`${field('subject')}: ${locale === DEFAULT_LOCALE ? 'English is required' : 'missing (the message is given)'}`)
    if (markdown === undefined)
      problems.push(`${field('markdown')}: ${locale === DEFAULT_LOCALE ? 'English is required' : 'missing (the subject is given)'}`)
    if (subject === undefined || markdown === undefined) continue
    for (const problem of campaignProblems({ subject, markdown }, stores))
      problems.push(problem.replace(/^(subject|markdown):/, (_, name: 'subject' | 'markdown') => `${field(name)}:`))
    words[locale] = { subject: subject.trim(), markdown }
  }
  const english = words.en
  if (problems.length > 0 || !english) return { ok: false, problems }
  return { ok: true, words: { ...words, en: english } }
}

/**
 * What a reader of `locale` gets of a campaign: its words in that language if it was written in
 * it, else the English, and the language the whole mail speaks with them (its greeting and
 * footer too: a mail never mixes two languages).
 */
export function campaignIn(
  campaign: { subject: string; markdown: string; translations: Partial<Record<Locale, { subject: string; markdown: string }>> },
  locale: Locale,
): { words: { subject: string; markdown: string }; locale: Locale } {
  const translated = campaign.translations[locale]
  return translated ? { words: translated, locale } : { words: campaign, locale: DEFAULT_LOCALE }
}
