// The three ways onto a partner's site, as the Partners view shows them to paste (docs/partners.md):
// the script, the iframe, and a plain form that works with no script at all. The form's words are
// the page's, in the language chosen; every value is escaped as HTML.
import type { Locale } from '../../contract/locales.js'
import {
  EMBED_FRAME_HEIGHT,
  EMBED_SCRIPT_PATH,
  embedJoinPath,
  embedPath,
  type EmbedWords,
  type PartnerSnippets,
} from '../../contract/partners.js'
import type { PartnerRecord } from '../store/types.js'

const escape = (text: string) =>
  text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] ?? c)

export function partnerSnippets(siteUrl: string, partner: PartnerRecord, locale: Locale, words: EmbedWords): PartnerSnippets {
  const site = escape(siteUrl)
  const key = escape(partner.key)
  // The iframe's box is as tall as the form, and the meter when the partner has one (its country).
  const height = partner.country === null ? EMBED_FRAME_HEIGHT.form : EMBED_FRAME_HEIGHT.meter
  return {
    locale,
    script: `<script src="${site}${EMBED_SCRIPT_PATH}" data-partner="${key}" data-lang="${locale}" async></script>`,
    iframe: `<iframe src="${site}${embedPath(key)}?lang=${locale}" title="${escape(words.title)}" width="100%" height="${height}" loading="lazy"></iframe>`,
    form: [
      `<form method="post" action="${site}${embedJoinPath(key)}">`,
      `  <label for="kennect-email">${escape(words.emailLabel)}</label>`,
      `  <input id="kennect-email" name="email" type="email" required autocomplete="email" placeholder="${escape(words.emailPlaceholder)}">`,
      `  <input type="hidden" name="locale" value="${locale}">`,
      `  <div hidden><label>${escape(words.honeypotLabel)} <input name="website" tabindex="-1" autocomplete="off"></label></div>`,
      `  <button type="submit">${escape(words.submit)}</button>`,
      `</form>`,
    ].join('\n'),
  }
}
