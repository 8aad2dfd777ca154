// Every word on the page, in each language: the catalogue's messages (locales/, i18next's format)
// in the shape the sections take. Sections receive their slice as props and hold no copy of their
// own, so a copy edit never touches layout, and tests import the expected text from here. Used at
// build time only: the browser gets its islands' words from the page (web/islands.tsx).
import type { LandingWords } from '../contract/growth'
import { DEFAULT_LOCALE, LOCALES, type Locale, localePath } from '../contract/locales'
import type { JoinOutcome } from '../contract/waitlist'
import { languageName, translator } from '../locales/index'
import { PRIVACY_ID } from './anchors'
import type { Drawing } from './components/dog-art'
import type { IconName } from './components/icons'
import type { StoreBadgeWords } from './components/store-badge'
import { site } from './site'

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

/** The language switcher: plain links, each language named in itself. */
export interface Languages {
  /** The switcher's name for a screen reader ("Language"). */
  label: string
  current: Locale
  links: { locale: Locale; name: string; href: string }[]
  /**
   * On the default language's page only: each other language's offer of itself, in its own words,
   * shown to a browser that prefers it (web/sections/language-hint.tsx); empty on the others.
   */
  hints: LanguageHint[]
}

/** "Diese Seite auf Deutsch lesen": a language's offer of its page, in that language. */
export interface LanguageHint {
  locale: Locale
  href: string
  text: string
  close: string
}

export interface Content {
  meta: { title: string; description: string; lang: Locale }
  /** The slim bar that stays at the top: the name, the way to the form, and the other languages. */
  header: { brand: string; label: string; join: string; languages: Languages }
  hero: {
    /** The line above the headline: the App Store's phone alone, or both phones (STORE_SLOTS). */
    eyebrow: string
    eyebrowBothStores: string
    headline: string
    lead: string
    /** The App Store's badge; Google Play's beside it where the server has PLAY_STORE_URL. */
    badge: StoreBadgeWords
    playBadge: StoreBadgeWords
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
    /** Naming the App Store alone, or both stores (STORE_SLOTS). */
    subtext: string
    subtextBothStores: string
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

/** The icons of each section's cards, in the catalogue's order. */
const AUDIENCES: IconName[] = ['trophy', 'home', 'building', 'heart']
const FEATURES: IconName[] = ['id-card', 'search', 'badge-check', 'messages', 'chart', 'eye-off', 'crown']
const STEPS: { icon: IconName; drawing: Drawing }[] = [
  { icon: 'paw', drawing: 'dogFace' },
  { icon: 'handshake', drawing: 'poodle' },
  { icon: 'calendar-heart', drawing: 'dog' },
]
const WHY: IconName[] = ['stethoscope', 'dna', 'user-check', 'scale']
const TRUST: IconName[] = ['shield-check', 'lock', 'file-check', 'gavel', 'headset']
const OUTCOMES: JoinOutcome[] = ['joined', 'invalid', 'expired', 'busy', 'error']

function languageHint(locale: Locale): LanguageHint {
  const t = translator(locale)
  return { locale, href: localePath(locale), text: t('page.header.suggest'), close: t('page.header.suggestClose') }
}

/** The page's words in one language. */
export function pageContent(locale: Locale): Content {
  const t = translator(locale, { product: site.productName, supportEmail: site.supportEmail })
  const name = site.productName
  const toast = (key: string) => ({ title: t(`${key}.title`), description: t(`${key}.description`) })
  const badge = (key: string): StoreBadgeWords => ({
    small: t(`${key}.smallText`),
    large: t(`${key}.largeText`),
    label: t(`${key}.ariaLabel`),
  })
  const cards = (key: string, icons: readonly IconName[]) =>
    icons.map((icon, i) => ({ icon, title: t(`${key}.${i}.title`), text: t(`${key}.${i}.text`) }))
  // The same words whether the answer comes as a toast (JavaScript) or as the page's message (none).
  const joined = toast('page.waitlist.success')
  const failed = toast('page.waitlist.failure')
  return {
    meta: { title: t('page.meta.title'), description: t('page.meta.description'), lang: locale },
    header: {
      brand: name,
      label: t('page.header.label'),
      join: t('page.header.join'),
      languages: {
        label: t('page.header.languages'),
        current: locale,
        links: LOCALES.map((other) => ({ locale: other, name: languageName(other), href: localePath(other) })),
        hints: locale === DEFAULT_LOCALE ? LOCALES.filter((other) => other !== locale).map(languageHint) : [],
      },
    },
    hero: {
      eyebrow: t('page.hero.eyebrow'),
      eyebrowBothStores: t('page.hero.eyebrowBothStores'),
      headline: t('page.hero.headline'),
      lead: t('page.hero.lead'),
      badge: badge('page.hero.badge'),
      playBadge: badge('page.hero.playBadge'),
      note: t('page.hero.note'),
      waiting: t.plurals('page.hero.waiting'),
      phone: {
        ariaLabel: t('page.hero.phone.ariaLabel'),
        greeting: t('page.hero.phone.greeting'),
        title: t('page.hero.phone.title'),
        dog: {
          name: t('page.hero.phone.dog.name'),
          breed: t('page.hero.phone.dog.breed'),
          age: t('page.hero.phone.dog.age'),
          initials: t('page.hero.phone.dog.initials'),
        },
        compatibility: { value: 94, label: t('page.hero.phone.compatibility.label') },
        badges: t.list('page.hero.phone.badges'),
        health: [0, 1, 2].map((i) => ({ label: t(`page.hero.phone.health.${i}.label`), value: t(`page.hero.phone.health.${i}.value`) })),
        actions: { pass: t('page.hero.phone.actions.pass'), connect: t('page.hero.phone.actions.connect') },
      },
    },
    about: {
      id: 'about',
      heading: t('page.about.heading'),
      tagline: t('page.about.tagline'),
      paragraphs: t.list('page.about.paragraphs'),
      profile: {
        heading: t('page.about.profile.heading'),
        items: [0, 1, 2, 3].map((i) => ({
          title: t(`page.about.profile.items.${i}.title`),
          text: t(`page.about.profile.items.${i}.text`),
        })),
      },
    },
    audiences: {
      id: 'who-is-it-for',
      heading: t('page.audiences.heading'),
      tagline: t('page.audiences.tagline'),
      lead: t('page.audiences.lead'),
      items: cards('page.audiences.items', AUDIENCES),
    },
    features: {
      id: 'features',
      heading: t('page.features.heading'),
      tagline: t('page.features.tagline'),
      lead: t('page.features.lead'),
      items: cards('page.features.items', FEATURES),
    },
    howItWorks: {
      id: 'how-it-works',
      heading: t('page.howItWorks.heading'),
      tagline: t('page.howItWorks.tagline'),
      lead: t('page.howItWorks.lead'),
      stepLabel: t('page.howItWorks.stepLabel'),
      steps: STEPS.map(({ icon, drawing }, i) => ({
        icon,
        drawing,
        title: t(`page.howItWorks.steps.${i}.title`),
        text: t(`page.howItWorks.steps.${i}.text`),
      })),
    },
    whyChoose: {
      id: 'why-choose',
      heading: t('page.whyChoose.heading'),
      tagline: t('page.whyChoose.tagline'),
      lead: t('page.whyChoose.lead'),
      items: cards('page.whyChoose.items', WHY),
    },
    trust: {
      id: 'trust',
      heading: t('page.trust.heading'),
      lead: t('page.trust.lead'),
      items: cards('page.trust.items', TRUST),
      testimonial: {
        quote: t('page.trust.testimonial.quote'),
        name: t('page.trust.testimonial.name'),
        role: t('page.trust.testimonial.role'),
        initials: t('page.trust.testimonial.initials'),
        rating: 5,
        ratingLabel: t('page.trust.testimonial.ratingLabel'),
      },
    },
    waitlist: {
      id: 'waitlist',
      heading: t('page.waitlist.heading'),
      subtext: t('page.waitlist.subtext'),
      subtextBothStores: t('page.waitlist.subtextBothStores'),
      emailLabel: t('page.waitlist.emailLabel'),
      emailPlaceholder: t('page.waitlist.emailPlaceholder'),
      submit: t('page.waitlist.submit'),
      submitting: t('page.waitlist.submitting'),
      success: joined,
      failure: failed,
      privacyNote: t('page.waitlist.privacyNote'),
      privacyLink: t('page.waitlist.privacyLink'),
      outcomes: Object.fromEntries(
        OUTCOMES.map((outcome) => [
          outcome,
          outcome === 'joined' ? joined : outcome === 'error' ? failed : toast(`page.waitlist.outcomes.${outcome}`),
        ]),
      ) as Record<JoinOutcome, ToastCopy>,
      needsScript: t('page.waitlist.needsScript'),
      honeypotLabel: t('page.waitlist.honeypotLabel'),
      // The address is filled in by the browser, which knows it: `{email}` is the form's own mark.
      typo: {
        question: t('page.waitlist.typo.question', { email: '{email}' }),
        accept: t('page.waitlist.typo.accept', { email: '{email}' }),
      },
    },
    privacy: { id: PRIVACY_ID, heading: t('page.privacy.heading'), paragraphs: t.list('page.privacy.paragraphs') },
    footer: {
      name,
      tagline: t('page.footer.tagline'),
      supportHeading: t('page.footer.supportHeading'),
      contactSupport: t('page.footer.contactSupport'),
      privacyLink: t('page.footer.privacyLink'),
      supportToast: toast('page.footer.supportToast'),
      supportEmail: site.supportEmail,
      copyright: t('page.footer.copyright', { year: '{year}' }),
    },
    // Radix fills in `{hotkey}` itself.
    toaster: { regionLabel: t('page.toaster.regionLabel', { hotkey: '{hotkey}' }), close: t('page.toaster.close') },
    notFound: {
      title: t('page.notFound.title'),
      heading: t('page.notFound.heading'),
      text: t('page.notFound.text'),
      home: t('page.notFound.home'),
    },
  }
}

/** The page in English, at `/`: the spec's words. */
export const content: Content = pageContent(DEFAULT_LOCALE)
