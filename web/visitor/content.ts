// Every word of the visitor's own page (/me/<token>). The page is layout only.
import type { CountryMeter } from '../../contract/growth'
import type { Role, VisitorNotice } from '../../contract/visitor'
import { site } from '../site'

const name = site.productName
const plural = new Intl.PluralRules('en')
const number = new Intl.NumberFormat('en')
/** `{n}` in the form for the count's plural category. */
const count = (n: number, forms: Partial<Record<Intl.LDMLPluralRule, string>> & { other: string }) =>
  (forms[plural.select(n)] ?? forms.other).replace('{n}', number.format(n))

export const visitorContent = {
  title: `Your ${name} sign-up`,
  heading: 'Your place on the waitlist',
  joined: (email: string, day: string) => `${email} joined on ${day}.`,
  confirm: {
    heading: 'Confirm your address',
    text: `Confirm that this address is yours, and we will tell you the moment ${name} is ready.`,
    button: 'Confirm my address',
    done: 'Your address is confirmed. Thank you!',
  },
  launch: {
    heading: (country: string) => `Bring ${name} to ${country}`,
    headingNoCountry: `Bring ${name} to where you live`,
    text: `${name} opens country by country, once enough breeders and owners wait there for each other. Confirmed addresses count.`,
    /** The meter, as the launch team sets its targets: "Germany: 31 of 80 breeders, 122 of 400 owners". */
    meter: (country: string, m: CountryMeter) =>
      `${country}: ${number.format(m.breeders)} of ${count(m.target.breeders, { one: '{n} breeder', other: '{n} breeders' })}, ` +
      `${number.format(m.owners)} of ${count(m.target.owners, { one: '{n} owner', other: '{n} owners' })}`,
    breeders: 'Breeders',
    owners: 'Owners',
    ready: (country: string) => `${country} is ready: ${name} opens there among the first.`,
    askCountry: 'Which country do you live in? Tell us, and see how close it is to opening there.',
    chooseCountry: 'Choose your country',
  },
  invite: {
    heading: 'Invite people you know',
    text: 'Share your link with breeders and dog owners you know. Everyone who joins through it and confirms brings your country closer.',
    confirmFirst: 'Confirm your address above, and you get a link to invite people you know.',
    linkLabel: 'Your invite link',
    copy: 'Copy link',
    copied: 'Link copied.',
    share: 'Share…',
    email: 'Send by e-mail',
    whatsapp: 'Send on WhatsApp',
    mailSubject: `Join me on the ${name} waitlist`,
    message: `I joined the ${name} waitlist, an app for responsible breeders and dog owners to find compatible dogs. Join through my link:`,
    /** Counts only: never who. */
    counts: (joined: number, confirmed: number) =>
      joined === 0
        ? 'Nobody has joined through your link yet.'
        : `${count(joined, { one: '{n} person has', other: '{n} people have' })} joined through your link; ${number.format(confirmed)} of them confirmed.`,
  },
  profile: {
    heading: 'Tell us about you',
    text: 'All optional. It helps us open the app first where breeders and owners are waiting for each other.',
    role: 'I am a',
    roles: {
      breeder: 'Professional breeder',
      owner: 'Dog owner',
      club: 'Kennel or breed club',
      enthusiast: 'Pet enthusiast',
    } satisfies Record<Role, string>,
    noRole: 'Rather not say',
    breeds: 'Breeds',
    breedsHint: 'Up to five. Start typing to pick a recognised name, or write your own.',
    breedLabel: (n: number) => `Breed ${n}`,
    country: 'Country',
    noCountry: 'Choose a country',
    save: 'Save',
    invalid: 'Some of that could not be saved. Please check the fields and try again.',
  },
  data: {
    heading: 'Your data',
    text: 'Everything we keep about this address, as a file.',
    button: 'Download my data',
  },
  emails: {
    heading: 'E-mails',
    subscribed: 'We will write to you when the app launches.',
    unsubscribed: 'You will get no more e-mails from us.',
    stop: 'Stop e-mails',
    restart: 'Send me e-mails again',
  },
  remove: {
    heading: 'Delete my sign-up',
    text: 'Removes your address, your answers and your mails for good. Links in our mails will stop working.',
    button: 'Delete my sign-up',
    confirmHeading: 'Delete your sign-up for good?',
    confirmText: 'This cannot be undone. To join again later, enter your address on the page.',
    confirm: 'Yes, delete everything',
    cancel: 'Keep my sign-up',
  },
  notices: {
    confirmed: 'Your address is confirmed. Thank you!',
    saved: 'Saved. Thank you for telling us.',
    unsubscribed: 'Done: you will get no more e-mails from us.',
    resubscribed: 'Done: we will write to you when the app launches.',
  } satisfies Record<VisitorNotice, string>,
  gone: {
    'not-found': {
      title: `Nothing here - ${name}`,
      heading: 'Nothing here',
      text: 'This link opens no sign-up: it may have been deleted.',
    },
    deleted: {
      title: `Deleted - ${name}`,
      heading: 'Your sign-up is deleted',
      text: 'Your address, your answers and your mails are gone for good.',
    },
  },
  home: `Back to ${name}`,
}

export type VisitorContent = typeof visitorContent
