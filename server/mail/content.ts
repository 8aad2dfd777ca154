// Every word of the mails. Templates (templates.ts) are layout only, so a copy edit never touches
// markup, and tests import the expected words from here.

export interface MailCopy {
  product: string
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
}

export function mailCopy(product: string): MailCopy {
  return {
    product,
    footer: {
      why: `You receive this because this address joined the ${product} waitlist.`,
      page: 'Your page: see, change or delete what we keep',
      unsubscribe: 'Stop e-mails',
    },
    confirmation: {
      subject: `Confirm your place on the ${product} waitlist`,
      preheader: 'One tap to confirm, and tell us about your dogs if you like.',
      heading: "You're on the list",
      paragraphs: [
        `Thanks for joining the ${product} waitlist. We'll write when the app is ready for you, and not before.`,
        'Please confirm that this address is yours. On the same page you can tell us whether you breed, own or love dogs, which breeds and where you are, so we can open the app first where breeders and owners are waiting for each other.',
      ],
      button: 'Confirm my address',
      afterButton: ['Did not sign up? Ignore this mail, or stop our e-mails with the link below: nothing more will come.'],
      linkIntro: 'Confirm and see your page:',
      signOff: `The ${product} team`,
    },
  }
}
