// The mails an operator gets (docs/decisions/017-the-team.md): an invitation to the team, and a
// sign-in link. In English, as the admin page is; the words are here, the layout is templates.ts.
import { layoutHtml, type RenderedMail } from './templates.js'

const escape = (text: string) => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`)

const WORDS = {
  invite: {
    subject: (product: string) => `You are invited to the ${product} waitlist team`,
    heading: 'Join the team',
    paragraphs: (product: string) => [
      `An owner of the ${product} waitlist has invited you to its team.`,
      'The link below works once, for 7 days. On the page it opens you create a passkey (or continue with e-mail sign-in links).',
    ],
    button: 'Accept the invitation',
    note: 'If you did not expect this invitation, ignore this mail: nothing happens without the link.',
  },
  signIn: {
    subject: (product: string) => `Your sign-in link for the ${product} waitlist`,
    heading: 'Sign in',
    paragraphs: () => ['Someone asked to sign in to the waitlist with this address. The link works once, for 10 minutes.'],
    button: 'Sign in',
    note: 'If it was not you, ignore this mail: nobody can sign in without the link.',
  },
} as const

/** An owner's notice that the server disabled a webhook endpoint; `link` is the admin page's webhooks. */
export function renderWebhookDisabledMail(product: string, note: Record<string, unknown>, link: string): RenderedMail {
  const subject = `A webhook of the ${product} waitlist was disabled`
  const paragraphs = [
    `The endpoint ${String(note.url ?? '')} (webhook ${String(note.endpoint ?? '')}) was disabled: ${String(note.reason ?? '')}.`,
    'Its events are kept. Once the endpoint answers again, enable it on the admin page and send the failed deliveries again.',
  ]
  return {
    subject,
    html: layoutHtml({
      subject,
      preheader: paragraphs[0] ?? '',
      heading: 'A webhook was disabled',
      bodyHtml: paragraphs.map((p) => `<p style="margin:0 0 14px">${escape(p)}</p>`).join('\n'),
      button: { label: 'Open the webhooks', href: link },
      note: 'You get this mail as an owner of the waitlist.',
      product,
      lang: 'en',
    }),
    text: `A webhook was disabled\n\n${paragraphs.join('\n\n')}\n\nOpen the webhooks: ${link}\n\n--\nYou get this mail as an owner of the waitlist.\n`,
  }
}

/** An operator's mail: `link` is the setup (invitation) or sign-in address with its token. */
export function renderTeamMail(kind: 'team-invite' | 'team-sign-in', product: string, link: string): RenderedMail {
  const words = kind === 'team-invite' ? WORDS.invite : WORDS.signIn
  const subject = words.subject(product)
  const paragraphs = words.paragraphs(product)
  return {
    subject,
    html: layoutHtml({
      subject,
      preheader: paragraphs[0] ?? '',
      heading: words.heading,
      bodyHtml: paragraphs.map((p) => `<p style="margin:0 0 14px">${escape(p)}</p>`).join('\n'),
      button: { label: words.button, href: link },
      note: words.note,
      product,
      lang: 'en',
    }),
    text: `${words.heading}\n\n${paragraphs.join('\n\n')}\n\n${words.button}: ${link}\n\n--\n${words.note}\n`,
  }
}
