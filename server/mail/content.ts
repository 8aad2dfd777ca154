// Every word of the mails, in the recipient's language, from the catalogue (locales/, the same
// one the pages are built from). Templates (templates.ts) are layout only, so a copy edit never
// touches markup, and tests import the expected words from here.
import { DEFAULT_LOCALE, type Locale } from '../../contract/locales.js'
import { translator } from '../../locales/index.js'

export interface MailCopy {
  product: string
  locale: Locale
  /** Under every mail: why it came, and how to stop it. */
  footer: { why: string; page: string; unsubscribe: string }
  confirmation: {
    subject: string
    /** The line inboxes show after the subject. */
    preheader: string
    heading: string
    /** Above the button. */
    paragraphs: string[]
    button: string
    /** Below the button. */
    afterButton: string[]
    /** For the text part and for clients that do not show the button. */
    linkIntro: string
    signOff: string
  }
  /** A campaign mail to someone an import brought in who never confirmed: why it came, and the ask to confirm. */
  imported: { why: string; paragraphs: string[]; button: string; linkIntro: string }
}

export function mailCopy(product: string, locale: Locale = DEFAULT_LOCALE): MailCopy {
  const t = translator(locale, { product })
  return {
    product,
    locale,
    footer: { why: t('mail.footer.why'), page: t('mail.footer.page'), unsubscribe: t('mail.footer.unsubscribe') },
    confirmation: {
      subject: t('mail.confirmation.subject'),
      preheader: t('mail.confirmation.preheader'),
      heading: t('mail.confirmation.heading'),
      paragraphs: t.list('mail.confirmation.paragraphs'),
      button: t('mail.confirmation.button'),
      afterButton: t.list('mail.confirmation.afterButton'),
      linkIntro: t('mail.confirmation.linkIntro'),
      signOff: t('mail.confirmation.signOff'),
    },
    imported: {
      why: t('mail.imported.why'),
      paragraphs: t.list('mail.imported.paragraphs'),
      button: t('mail.imported.button'),
      linkIntro: t('mail.imported.linkIntro'),
    },
  }
}

/** The mails' words in every language, made once. */
export function mailCopies(product: string): (locale: Locale) => MailCopy {
  const made = new Map<Locale, MailCopy>()
  return (locale) => {
    let copy = made.get(locale)
    if (!copy) made.set(locale, (copy = mailCopy(product, locale)))
    return copy
  }
}
