// Every word of the visitor's own page (/me/<token>). The page is layout only.
import type { Role, VisitorNotice } from '../../contract/visitor'
import { site } from '../site'

const name = site.productName

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
