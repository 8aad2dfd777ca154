// Every word on the page. Sections receive their slice as props and hold no copy of their own,
// so a copy edit never touches layout, and tests import the expected text from here.
import type { LandingWords } from '../contract/growth'
import type { JoinOutcome } from '../contract/waitlist'
import type { Drawing } from './components/dog-art'
import type { IconName } from './components/icons'
import { site } from './site'

const name = site.productName

export interface Card {
  icon: IconName
  title: string
  text: string
}

/**
 * A section's heading is the name the spec gives it (docs/requirements.md, "Sections"), so a
 * screen reader's list of headings reads the page's outline; the marketing line is its tagline.
 */
export interface SectionCopy {
  id: string
  heading: string
  tagline?: string
  lead: string
}

export interface ToastCopy {
  title: string
  description: string
}

export interface Content {
  meta: { title: string; description: string; lang: string }
  /** The slim bar that stays at the top: the name, and the way to the form. */
  header: { brand: string; label: string; join: string }
  hero: {
    eyebrow: string
    headline: string
    lead: string
    badge: { ariaLabel: string; smallText: string; largeText: string }
    /** Under the badge, until WAITING_SHOWN_FROM sign-ups are confirmed; then `waiting` says how many. */
    note: string
    /** `{count}` confirmed sign-ups, rounded down to the ten; written by the server into each page it sends. */
    waiting: LandingWords['waiting']
    phone: {
      ariaLabel: string
      greeting: string
      title: string
      dog: { name: string; breed: string; age: string; initials: string }
      compatibility: { value: number; label: string }
      badges: string[]
      health: { label: string; value: string }[]
      actions: { pass: string; connect: string }
    }
  }
  about: {
    id: string
    heading: string
    tagline: string
    paragraphs: string[]
    /** What one dog's profile holds: the facts a match is made on. */
    profile: { heading: string; items: { title: string; text: string }[] }
  }
  audiences: SectionCopy & { items: Card[] }
  features: SectionCopy & { items: Card[] }
  howItWorks: SectionCopy & { stepLabel: string; steps: (Card & { drawing: Drawing })[] }
  whyChoose: SectionCopy & { items: Card[] }
  trust: SectionCopy & {
    items: Card[]
    testimonial: { quote: string; name: string; role: string; initials: string; rating: number; ratingLabel: string }
  }
  waitlist: {
    id: string
    heading: string
    subtext: string
    emailLabel: string
    emailPlaceholder: string
    submit: string
    submitting: string
    success: ToastCopy
    failure: ToastCopy
    privacyNote: string
    privacyLink: string
    /** Shown without JavaScript, by `:target`, after the no-script post (JOIN_OUTCOMES). */
    outcomes: Record<JoinOutcome, ToastCopy>
    /** Shown without JavaScript when the page's backend is not our server (no form route). */
    needsScript: string
    /** The honeypot's label, which only a bot reading the markup meets. */
    honeypotLabel: string
    /** Under the field, for a likely misspelt domain: `{email}` is the suggestion. Never blocks, never sent. */
    typo: { question: string; accept: string }
  }
  privacy: { id: string; heading: string; paragraphs: string[] }
  footer: {
    name: string
    tagline: string
    supportHeading: string
    contactSupport: string
    supportToast: ToastCopy
    /** Where the support toast's address links (its words in the description become the link). */
    supportEmail: string
    privacyLink: string
    /** `{year}` is replaced by the current year. */
    copyright: string
  }
  toaster: { regionLabel: string; close: string }
  /** The page a browser gets for an unknown address (server: the not-found handler). */
  notFound: { title: string; heading: string; text: string; home: string }
}

// Each section's copy is its own export, so the browser bundle carries only the copy of the
// sections it hydrates (web/islands.tsx); `content` gathers them for the prerender and the tests.

export const meta: Content['meta'] = {
  title: `${name} - Find the Perfect Match for Your Dog`,
  description: `${name} is the premier mobile app for responsible dog breeders and owners: verified profiles, health-tested matches and secure messaging for ethical breeding.`,
  lang: 'en',
}

export const header: Content['header'] = {
  brand: name,
  label: `${name}, home`,
  join: 'Join the waitlist',
}

export const hero: Content['hero'] = {
  eyebrow: 'Coming soon to iPhone',
  headline: 'Find the Perfect Match for Your Dog',
  lead: `${name} connects responsible breeders and dog owners through verified profiles, health-tested matches and secure messaging, so every litter starts with the right pairing.`,
  badge: {
    ariaLabel: `Coming soon on the App Store: join the ${name} waitlist for early access`,
    smallText: 'Coming soon on the',
    largeText: 'App Store',
  },
  note: 'Launching soon. Join the waitlist and be first in line.',
  waiting: { other: '{count} breeders and dog owners are waiting' },
  phone: {
    ariaLabel: `Preview of the ${name} app showing a compatible match`,
    greeting: 'Matches for Bella',
    title: 'Top picks',
    dog: { name: 'Duke', breed: 'Golden Retriever', age: '4 years', initials: 'D' },
    compatibility: { value: 94, label: 'compatible' },
    badges: ['Verified breeder', 'Pedigree on file'],
    health: [
      { label: 'Hips (OFA)', value: 'Excellent' },
      { label: 'Elbows', value: 'Normal' },
      { label: 'PRA-prcd', value: 'Clear' },
    ],
    actions: { pass: 'Pass', connect: 'Connect' },
  },
}

export const about: Content['about'] = {
  id: 'about',
  heading: `About ${name}`,
  tagline: 'Breeding decisions deserve better than classified ads',
  paragraphs: [
    `${name} is a mobile app for people who take breeding seriously. It brings the facts that matter (health certifications, genetic test results, pedigrees and temperament) into one verified profile for every dog, and matches dogs on them.`,
    'Instead of scrolling through social media groups and taking a stranger at their word, you see what has been checked, talk to verified owners in a private chat, and keep a record of every pairing and litter.',
  ],
  profile: {
    heading: 'What a profile shows before you talk',
    items: [
      {
        title: 'Health results, with their source',
        text: 'Hip and elbow scores, eye tests and DNA panels, each marked verified once checked.',
      },
      {
        title: 'Pedigree and litters',
        text: 'Five generations of ancestry and every earlier pairing, so line breeding is never a surprise.',
      },
      {
        title: 'Temperament, in the owner’s words',
        text: 'How the dog lives at home, with children and other dogs, and what it was trained for.',
      },
      { title: 'Who stands behind the dog', text: 'A breeder or owner whose identity is checked, with a record others can see.' },
    ],
  },
}

export const audiences: Content['audiences'] = {
  id: 'who-is-it-for',
  heading: 'Who Is It For?',
  tagline: 'Made for everyone who cares how dogs are bred',
  lead: 'Whether you run a kennel or are planning your first and only litter, the same standards apply.',
  items: [
    {
      icon: 'trophy',
      title: 'Professional dog breeders',
      text: 'Present your health testing and pedigrees in one place and find stud or dam matches that strengthen your lines.',
    },
    {
      icon: 'home',
      title: 'Dog owners',
      text: 'Thinking about a litter from your own dog? Find a health-tested, well-matched partner and owners who will do it properly.',
    },
    {
      icon: 'building',
      title: 'Kennels & breed clubs',
      text: 'Manage several dogs under one kennel profile, show your record, and connect with breeders who share your standards.',
    },
    {
      icon: 'heart',
      title: 'Pet enthusiasts',
      text: 'Follow the breeds you love, learn what ethical breeding looks like, and meet verified breeders before your next puppy.',
    },
  ],
}

export const features: Content['features'] = {
  id: 'features',
  heading: 'Key Features & Capabilities',
  tagline: 'Everything a responsible match needs, in your pocket',
  lead: 'From the first profile to the last litter record, each feature is built around health, honesty and your privacy.',
  items: [
    {
      icon: 'id-card',
      title: 'Detailed dog profiles',
      text: 'Photos, breed, age, health certifications, genetic test results, pedigrees and personality traits, all on one profile.',
    },
    {
      icon: 'search',
      title: 'Compatible-match search',
      text: 'Filter by breed, distance, health results and temperament, and let the matching algorithm rank the most compatible dogs.',
    },
    {
      icon: 'badge-check',
      title: 'Verified community',
      text: 'User, dog, health and genetic verification badges show at a glance what has actually been checked.',
    },
    {
      icon: 'messages',
      title: 'Secure messaging',
      text: 'Talk privately in the app, without handing out your phone number or e-mail until you decide to.',
    },
    {
      icon: 'chart',
      title: 'Breeding history & analytics',
      text: 'Record pairings, litters and outcomes, and follow them over time in your analytics dashboard.',
    },
    {
      icon: 'eye-off',
      title: 'Privacy controls',
      text: 'Choose who can see your profile, your dogs and your location, and change it whenever you like.',
    },
    {
      icon: 'crown',
      title: 'Premium features',
      text: 'Advanced analytics, featured listings, an extended search radius and priority support for those who need more.',
    },
  ],
}

export const howItWorks: Content['howItWorks'] = {
  id: 'how-it-works',
  heading: 'How It Works',
  tagline: 'From profile to puppies in three steps',
  lead: 'No forums to trawl and no guesswork about health: just the right dogs and the people behind them.',
  stepLabel: 'Step',
  steps: [
    {
      icon: 'paw',
      drawing: 'dogFace',
      title: "Create your dog's profile",
      text: 'Add photos, breed, age, health certifications, genetic tests and pedigree. Verification badges appear as checks are completed.',
    },
    {
      icon: 'handshake',
      drawing: 'poodle',
      title: 'Discover and connect',
      text: 'Search compatible matches with filters that matter to you, then send a connection request to the owner.',
    },
    {
      icon: 'calendar-heart',
      drawing: 'dog',
      title: 'Chat, meet and track',
      text: 'Agree the details in secure chat, arrange to meet, and keep the breeding history on record afterwards.',
    },
  ],
}

export const whyChoose: Content['whyChoose'] = {
  id: 'why-choose',
  heading: `Why Choose ${name}?`,
  tagline: 'Health and ethics first, not an afterthought',
  lead: 'General pet marketplaces were built to sell. We are building for the long-term wellbeing of the dogs and their breeds.',
  items: [
    {
      icon: 'stethoscope',
      title: 'Health comes first',
      text: 'Health certifications and genetic results sit at the top of every profile and weigh into every match.',
    },
    {
      icon: 'dna',
      title: 'Smarter matches',
      text: 'Matching looks at genetic compatibility, temperament and pedigree, not just breed and distance.',
    },
    {
      icon: 'user-check',
      title: 'Real, verified people',
      text: 'Verification of breeders and their dogs means you know who you are talking to before you meet.',
    },
    {
      icon: 'scale',
      title: 'Ethics you can see',
      text: 'Clear community guidelines, enforced, so responsible breeders are not competing with puppy farms.',
    },
  ],
}

export const trust: Content['trust'] = {
  id: 'trust',
  heading: 'Built on Trust, Privacy & Safety',
  lead: 'A match is only as good as the information behind it, and your details are only shared when you say so.',
  items: [
    {
      icon: 'shield-check',
      title: 'Verified breeder profiles',
      text: 'Breeders pass background checks before their profile carries a verified badge.',
    },
    {
      icon: 'lock',
      title: 'Secure messaging',
      text: 'Conversations stay inside the app, and your contact details stay yours.',
    },
    {
      icon: 'file-check',
      title: 'Health record verification',
      text: 'Health certificates and genetic test results are checked before they are marked as verified.',
    },
    {
      icon: 'gavel',
      title: 'Guideline enforcement',
      text: 'Our breeding guidelines are enforced: reports are reviewed and accounts that break the rules are removed.',
    },
    {
      icon: 'headset',
      title: '24/7 support',
      text: 'Questions or concerns get a real answer from our support team, day or night.',
    },
  ],
  testimonial: {
    quote:
      'Finally a place where health testing comes first. I found a stud for my Labrador with matching hip and eye results within a week, and every conversation stayed in the app until we were ready to meet.',
    name: 'Sarah M.',
    role: 'Labrador Retriever breeder, early-access tester',
    initials: 'SM',
    rating: 5,
    ratingLabel: 'Rated 5 out of 5 stars',
  },
}

// The same words whether the answer comes as a toast (JavaScript) or as the page's message (none).
const joined: ToastCopy = { title: '🎉 Thanks for joining!', description: `You'll be the first to know when ${name} launches!` }
const failed: ToastCopy = { title: 'Error', description: 'There was a problem joining the waitlist. Please try again.' }

export const waitlist: Content['waitlist'] = {
  id: 'waitlist',
  heading: 'Ready to find the perfect match?',
  subtext: `Download the app at launch and get early access: join the waitlist and we'll tell you the moment ${name} is on the App Store.`,
  emailLabel: 'Email address',
  emailPlaceholder: 'you@example.com',
  submit: 'Join Waitlist',
  submitting: 'Joining…',
  success: joined,
  failure: failed,
  privacyNote: `We keep your email address, when you joined and where your visit came from, to confirm your place and tell you when ${name} launches. Our mail links to a page of your own, where you can see, download or delete it.`,
  privacyLink: 'How we handle your data',
  outcomes: {
    joined,
    invalid: {
      title: 'Please check your email address',
      description: "That doesn't look like an email address we can write to. Please enter it again.",
    },
    expired: {
      title: 'Please send the form again',
      description: 'This page was open for a long time, so we could not take your address. Please enter it again.',
    },
    busy: {
      title: 'Please try again in a minute',
      description: 'We received many sign-ups from your network just now. Please wait a minute and send the form again.',
    },
    error: failed,
  },
  needsScript: 'Joining the waitlist needs JavaScript. Please turn it on in your browser and reload this page.',
  honeypotLabel: 'Leave this field empty',
  typo: { question: 'Did you mean {email}?', accept: 'Use {email}' },
}

/** The privacy section's anchor, its own export: the islands link to it without carrying its words. */
export const PRIVACY_ID = 'privacy'

export const privacy: Content['privacy'] = {
  id: PRIVACY_ID,
  heading: 'Privacy',
  paragraphs: [
    `When you join the waitlist we keep your email address, the moment you joined, and where your visit came from (the campaign name in the link you followed, or the name of the website that sent you, never the full address of that page). We do not keep your IP address or details of your browser with it.`,
    `We send you one mail to confirm your address. It links to a page of your own, where you can confirm, tell us if you like whether you breed, own or love dogs, which breeds and where you live, download everything we keep, stop our e-mails, or delete your sign-up for good.`,
    `If you came through someone's invite link, we note whose link it was. Once you confirm your address you get a link of your own: the person who shares it sees how many people joined through it and how many confirmed, never who they are.`,
    `We count visits to this page without a cookie: per day, how many times the page was sent, where the visits came from, and how many different visitors there were. To tell visitors apart for one day, we make a code from your IP address and browser name with a secret that changes every day; the secret and the codes are deleted when the day is over. No cookie, no IP address and nothing else about you is kept for it.`,
    `We use your address to tell you when ${name} is ready for you, and for nothing else. We do not sell it or share it. If you cannot find our mail, email ${site.supportEmail} and we will delete your address by hand.`,
  ],
}

export const footer: Content['footer'] = {
  name,
  tagline: 'Connecting responsible dog breeders and owners for ethical breeding.',
  supportHeading: 'Support',
  contactSupport: 'Contact Support',
  privacyLink: 'Privacy',
  supportToast: {
    title: 'Contact Support',
    description: `Email us at ${site.supportEmail} and our team will get back to you.`,
  },
  supportEmail: site.supportEmail,
  copyright: `© {year} ${name}. All rights reserved.`,
}

export const toaster: Content['toaster'] = { regionLabel: 'Notifications ({hotkey})', close: 'Close notification' }

export const notFound: Content['notFound'] = {
  title: `Page not found - ${name}`,
  heading: 'This page went for a walk',
  text: `There is nothing at this address. The ${name} page, with its waitlist, is one click away.`,
  home: `Back to ${name}`,
}

export const content: Content = {
  meta,
  header,
  hero,
  about,
  audiences,
  features,
  howItWorks,
  whyChoose,
  trust,
  waitlist,
  privacy,
  footer,
  toaster,
  notFound,
}
