// The mails an operator gets (docs/decisions/017-the-team.md): an invitation to the team, a sign-in
// link, an owner's notice of a disabled webhook. In the addressee's own language, from the back
// office's catalogues (locales/admin/); the layout is templates.ts.
import type { Locale } from '../../contract/locales.js'
import { disabledReasonWords, isDisabledReason } from '../../contract/webhooks.js'
import { adminTranslator } from '../../locales/index.js'
import { layoutHtml, type RenderedMail } from './templates.js'

const escape = (text: string) => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`)

/** One of an operator's mails: its words (`mails.<kind>` of the catalogue) around one button. */
function operatorMail(
  kind: 'invite' | 'signIn' | 'webhookDisabled',
  locale: Locale,
  values: Record<string, string>,
  link: string,
): RenderedMail {
  const t = adminTranslator(locale, values)
  const subject = t(`mails.${kind}.subject`)
  const heading = t(`mails.${kind}.heading`)
  const paragraphs = t.list(`mails.${kind}.paragraphs`)
  const button = t(`mails.${kind}.button`)
  const note = t(`mails.${kind}.note`)
  return {
    subject,
    html: layoutHtml({
      subject,
      preheader: paragraphs[0] ?? '',
      heading,
      bodyHtml: paragraphs.map((p) => `<p style="margin:0 0 14px">${escape(p)}</p>`).join('\n'),
      button: { label: button, href: link },
      note,
      product: values.product ?? '',
      lang: locale,
    }),
    text: `${heading}\n\n${paragraphs.join('\n\n')}\n\n${button}: ${link}\n\n--\n${note}\n`,
  }
}

/** An owner's notice that the server disabled a webhook endpoint; `link` is the admin page's webhooks. */
export function renderWebhookDisabledMail(product: string, locale: Locale, note: Record<string, unknown>, link: string): RenderedMail {
  return operatorMail(
    'webhookDisabled',
    locale,
    {
      product,
      url: String(note.url ?? ''),
      endpoint: String(note.endpoint ?? ''),
      // The reason's code, in the owner's language.
      reason: isDisabledReason(note.reason) ? disabledReasonWords(adminTranslator(locale), note.reason) : String(note.reason ?? ''),
    },
    link,
  )
}

/** An operator's mail: `link` is the setup (invitation) or sign-in address with its token. */
export function renderTeamMail(kind: 'team-invite' | 'team-sign-in', product: string, locale: Locale, link: string): RenderedMail {
  return operatorMail(kind === 'team-invite' ? 'invite' : 'signIn', locale, { product }, link)
}
