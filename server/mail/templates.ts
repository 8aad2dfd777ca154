// The product's mail template: one column, the brand's colours, an HTML part that reads in light
// and dark clients (colour-scheme hints and a prefers-color-scheme block; clients that invert
// colours get no pure white to invert), and a plain-text part with the same words.
import type { MailCopy } from './content.js'

export interface RenderedMail {
  subject: string
  text: string
  html: string
}

/** Where the mail's links lead: the visitor's page, and the one-click unsubscribe. */
export interface MailLinks {
  page: string
  unsubscribe: string
}

const escape = (text: string) =>
  text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] ?? c)

const BRAND = '#c2410c'
const INK = '#1c1917'
const MUTED = '#57534e'
const PAPER = '#fafaf9'

export interface Layout {
  subject: string
  preheader: string
  heading: string
  /** HTML paragraphs, already escaped (campaigns bring Markdown rendered to HTML). */
  bodyHtml: string
  button?: { label: string; href: string }
  /** HTML after the button, already escaped. */
  afterHtml?: string
  /** Under a visitor's mail: why it came, their page, and one-click unsubscribe. */
  footer?: { words: MailCopy['footer']; links: MailLinks }
  /** Under a mail that is not a visitor's (an operator's link): why it came. */
  note?: string
  product: string
  /** The mail's language (its <html lang>). */
  lang: string
}

/** The HTML part around any body. */
export function layoutHtml(mail: Layout): string {
  const button = mail.button
    ? `<table role="presentation" cellpadding="0" cellspacing="0" style="margin:28px 0"><tr><td style="border-radius:12px;background:${BRAND}">
        <a href="${escape(mail.button.href)}" style="display:inline-block;padding:14px 24px;font-weight:700;font-size:16px;color:#ffffff;text-decoration:none;border-radius:12px">${escape(mail.button.label)}</a>
      </td></tr></table>`
    : ''
  return `<!doctype html>
<html lang="${escape(mail.lang)}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="color-scheme" content="light dark">
<meta name="supported-color-schemes" content="light dark">
<title>${escape(mail.subject)}</title>
<style>
  :root { color-scheme: light dark; }
  @media (prefers-color-scheme: dark) {
    .page { background: #0c0a09 !important; }
    .card { background: #1c1917 !important; }
    .ink { color: #f5f5f4 !important; }
    .muted, .muted a { color: #d6d3d1 !important; }
    .brand { color: #fdba74 !important; }
  }
</style>
</head>
<body style="margin:0;padding:0">
<div style="display:none;max-height:0;overflow:hidden;opacity:0">${escape(mail.preheader)}&#8199;&#847;&#8199;&#847;&#8199;&#847;</div>
<table role="presentation" width="100%" cellpadding="0" cellspacing="0" class="page" style="background:${PAPER}">
  <tr><td align="center" style="padding:32px 16px">
    <table role="presentation" width="100%" cellpadding="0" cellspacing="0" style="max-width:560px">
      <tr><td style="padding:0 8px 20px;font:700 20px/1.2 system-ui,-apple-system,'Segoe UI',Roboto,Arial,sans-serif" class="ink">
        <span style="display:inline-block;width:28px;height:28px;border-radius:8px;background:${BRAND};color:#ffffff;text-align:center;line-height:28px;font-size:16px;margin-right:8px">&#128062;</span><span class="brand" style="color:${INK}">${escape(mail.product)}</span>
      </td></tr>
      <tr><td class="card" style="background:#ffffff;border-radius:20px;padding:32px 28px;font:16px/1.6 system-ui,-apple-system,'Segoe UI',Roboto,Arial,sans-serif;color:${INK}">
        <h1 class="ink" style="margin:0 0 16px;font-size:26px;line-height:1.25;color:${INK}">${escape(mail.heading)}</h1>
        <div class="ink" style="color:${INK}">${mail.bodyHtml}</div>
        ${button}
        ${mail.afterHtml ? `<div class="ink" style="color:${INK}">${mail.afterHtml}</div>` : ''}
      </td></tr>
            <tr><td class="muted" style="padding:20px 8px;font:13px/1.6 system-ui,-apple-system,'Segoe UI',Roboto,Arial,sans-serif;color:${MUTED}">
        ${
          mail.footer
            ? `${escape(mail.footer.words.why)}<br>
        <a href="${escape(mail.footer.links.page)}" style="color:${MUTED}">${escape(mail.footer.words.page)}</a> &middot;
        <a href="${escape(mail.footer.links.unsubscribe)}" style="color:${MUTED}">${escape(mail.footer.words.unsubscribe)}</a>`
            : escape(mail.note ?? '')
        }
      </td></tr>
    </table>
  </td></tr>
</table>
</body>
</html>
`
}

/** The footer of the text part. */
export function textFooter(footer: MailCopy['footer'], links: MailLinks): string {
  return `--\n${footer.why}\n${footer.page}: ${links.page}\n${footer.unsubscribe}: ${links.unsubscribe}\n`
}

/** The mail a new address gets: one link, to its own page, where it confirms. */
export function renderConfirmation(copy: MailCopy, links: MailLinks): RenderedMail {
  const { confirmation: c } = copy
  const paragraphs = (texts: string[]) => texts.map((p) => `<p style="margin:0 0 14px">${escape(p)}</p>`).join('\n')
  return {
    subject: c.subject,
    html: layoutHtml({
      subject: c.subject,
      preheader: c.preheader,
      heading: c.heading,
      bodyHtml: paragraphs(c.paragraphs),
      button: { label: c.button, href: links.page },
      afterHtml: `${paragraphs(c.afterButton)}\n<p style="margin:0">${escape(c.signOff)}</p>`,
      footer: { words: copy.footer, links },
      product: copy.product,
      lang: copy.locale,
    }),
    text: `${c.heading}\n\n${c.paragraphs.join('\n\n')}\n\n${c.linkIntro}\n${links.page}\n\n${c.afterButton.join('\n\n')}\n\n${c.signOff}\n\n${textFooter(copy.footer, links)}`,
  }
}
