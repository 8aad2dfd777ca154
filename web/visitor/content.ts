// Every word of the visitor's own page (/me/<token>), in the sign-up's language, from the
// catalogue (locales/). The page is layout only. Used by the server's render module, never in a browser.
import type { CountryCode } from '../../contract/countries'
import { DEFAULT_LOCALE, type Locale } from '../../contract/locales'
import type { BreedTarget } from '../../contract/breed-meters'
import type { PublicCountryMeter } from '../../contract/public-figures'
import {
  HEALTH_TESTS,
  type HealthTest,
  type Role,
  SIDES,
  type Side,
  type AppLinkGone,
  type VisitorBreedMeter,
  type VisitorGone,
  type VisitorNotice,
} from '../../contract/visitor'
import { PLATFORMS, type Platform } from '../../contract/app'
import { translator } from '../../locales/index'
import { site } from '../site'

const NOTICES: VisitorNotice[] = ['confirmed', 'saved', 'phone', 'language', 'unsubscribed', 'resubscribed']
const ROLE_KEYS: Role[] = ['breeder', 'owner', 'club', 'enthusiast']
const GONE: VisitorGone[] = ['not-found', 'deleted', 'unavailable']
const APP_GONE: AppLinkGone[] = ['not-found', 'claimed', 'busy']

export function visitorContent(locale: Locale) {
  const t = translator(locale, { product: site.productName })
  const number = new Intl.NumberFormat(locale)
  const shortRegion = new Intl.DisplayNames([locale], { type: 'region', style: 'short' })
  return {
    locale,
    title: t('visitor.title'),
    heading: t('visitor.heading'),
    joined: (email: string, day: string) => t('visitor.joined', { email, day }),
    confirm: {
      heading: t('visitor.confirm.heading'),
      text: t('visitor.confirm.text'),
      button: t('visitor.confirm.button'),
      done: t('visitor.confirm.done'),
    },
    launch: {
      heading: t('visitor.launch.heading'),
      text: t('visitor.launch.text'),
      /**
       * The meter as the public sees it, against the launch team's targets: "Germany: 20+ of 80
       * breeders, 100+ of 400 owners"; a figure not shown yet is "too few … to show a number yet".
       */
      meter: (country: string, m: PublicCountryMeter) =>
        t('visitor.launch.meter', {
          country,
          breeders:
            m.breeders === null
              ? t('visitor.launch.meterBreedersFew', { count: m.target.breeders })
              : t('visitor.launch.meterBreeders', { have: number.format(m.breeders), count: m.target.breeders }),
          owners:
            m.owners === null
              ? t('visitor.launch.meterOwnersFew', { count: m.target.owners })
              : t('visitor.launch.meterOwners', { have: number.format(m.owners), count: m.target.owners }),
        }),
      breeders: t('visitor.launch.breeders'),
      owners: t('visitor.launch.owners'),
      ready: t('visitor.launch.ready'),
      askCountry: t('visitor.launch.askCountry'),
      breedHeading: (country: string) => t('visitor.launch.breedHeading', { country }),
      /** A breed's meter as the public sees it: "10+ breeders with a stud"; one not shown yet is "too few …". */
      breedMeter: (m: VisitorBreedMeter) =>
        t('visitor.launch.breedMeter', {
          breed: m.name,
          studs:
            m.studs === null
              ? t('visitor.launch.breedStudsFew')
              : t('visitor.launch.breedStuds', { count: m.studs, have: number.format(m.studs) }),
          dams:
            m.dams === null
              ? t('visitor.launch.breedDamsFew')
              : t('visitor.launch.breedDams', { count: m.dams, have: number.format(m.dams) }),
        }),
      /** "when 1 stud and 3 dams wait": each number with its own noun in its language's plural form. */
      breedTarget: (target: BreedTarget) =>
        t('visitor.launch.breedTarget', {
          studs: t('visitor.launch.breedTargetStuds', { count: target.studs }),
          dams: t('visitor.launch.breedTargetDams', { count: target.dams }),
        }),
      studs: t('visitor.launch.studs'),
      dams: t('visitor.launch.dams'),
      breedReady: (breed: string) => t('visitor.launch.breedReady', { breed }),
      chooseCountry: t('visitor.launch.chooseCountry'),
    },
    invite: {
      heading: t('visitor.invite.heading'),
      text: t('visitor.invite.text'),
      confirmFirst: t('visitor.invite.confirmFirst'),
      linkLabel: t('visitor.invite.linkLabel'),
      copy: t('visitor.invite.copy'),
      copied: t('visitor.invite.copied'),
      share: t('visitor.invite.share'),
      email: t('visitor.invite.email'),
      whatsapp: t('visitor.invite.whatsapp'),
      mailSubject: t('visitor.invite.mailSubject'),
      message: t('visitor.invite.message'),
      /** Counts only: never who. */
      counts: (joined: number, confirmed: number) =>
        joined === 0 ? t('visitor.invite.countsNone') : t('visitor.invite.counts', { count: joined, confirmed: number.format(confirmed) }),
    },
    language: { heading: t('visitor.language.heading'), text: t('visitor.language.text') },
    profile: {
      heading: t('visitor.profile.heading'),
      text: t('visitor.profile.text'),
      role: t('visitor.profile.role'),
      roles: Object.fromEntries(ROLE_KEYS.map((role) => [role, t(`visitor.profile.roles.${role}`)])) as Record<Role, string>,
      noRole: t('visitor.profile.noRole'),
      breeds: t('visitor.profile.breeds'),
      breedsHint: t('visitor.profile.breedsHint'),
      breedLabel: (n: number) => t('visitor.profile.breedLabel', { n }),
      side: t('visitor.profile.side'),
      sideLabel: (n: number) => t('visitor.profile.sideLabel', { n }),
      sides: Object.fromEntries(SIDES.map((side) => [side, t(`visitor.profile.sides.${side}`)])) as Record<Side, string>,
      noSide: t('visitor.profile.noSide'),
      tests: t('visitor.profile.tests'),
      testsLabel: (n: number) => t('visitor.profile.testsLabel', { n }),
      testNames: Object.fromEntries(HEALTH_TESTS.map((test) => [test, t(`visitor.profile.testNames.${test}`)])) as Record<
        HealthTest,
        string
      >,
      otherTests: t('visitor.profile.otherTests'),
      otherTestsLabel: (n: number) => t('visitor.profile.otherTestsLabel', { n }),
      club: t('visitor.profile.club'),
      /** A club's country, short where the language has a short name ("UK"): the club's option fits a 320 px phone. */
      clubCountry: (code: CountryCode) => shortRegion.of(code) ?? code,
      noClub: t('visitor.profile.noClub'),
      otherClub: t('visitor.profile.otherClub'),
      litters: t('visitor.profile.litters'),
      littersNone: t('visitor.profile.littersNone'),
      littersMore: t('visitor.profile.littersMore'),
      noLitters: t('visitor.profile.noLitters'),
      littersNote: t('visitor.profile.littersNote'),
      country: t('visitor.profile.country'),
      noCountry: t('visitor.profile.noCountry'),
      save: t('visitor.profile.save'),
      invalid: t('visitor.profile.invalid'),
    },
    /** Into the app: the phone, the app link, and when the app took the profile. */
    app: {
      heading: t('visitor.app.heading'),
      text: t('visitor.app.text'),
      phone: t('visitor.app.phone'),
      phoneHint: t('visitor.app.phoneHint'),
      phones: Object.fromEntries(PLATFORMS.map((platform) => [platform, t(`visitor.app.phones.${platform}`)])) as Record<Platform, string>,
      save: t('visitor.app.save'),
      linkLabel: t('visitor.app.linkLabel'),
      linkText: t('visitor.app.linkText'),
      claimed: (day: string) => t('visitor.app.claimed', { day }),
    },
    /** The page an app link opens in a browser (/app/<code>). */
    appLink: {
      title: t('visitor.appLink.title'),
      heading: t('visitor.appLink.heading'),
      /** What to do on the phone the page was opened on. */
      steps: Object.fromEntries(PLATFORMS.map((platform) => [platform, t(`visitor.appLink.${platform}`)])) as Record<Platform, string>,
      appStore: {
        small: t('visitor.appLink.appStore.small'),
        large: t('visitor.appLink.appStore.large'),
        label: t('visitor.appLink.appStore.label'),
      },
      googlePlay: {
        small: t('visitor.appLink.googlePlay.small'),
        large: t('visitor.appLink.googlePlay.large'),
        label: t('visitor.appLink.googlePlay.label'),
      },
      noStore: t('visitor.appLink.noStore'),
      codeLabel: t('visitor.appLink.codeLabel'),
      codeHint: t('visitor.appLink.codeHint'),
      copy: t('visitor.appLink.copy'),
      copied: t('visitor.appLink.copied'),
      gone: Object.fromEntries(
        APP_GONE.map((why) => [
          why,
          {
            title: t(`visitor.appLink.gone.${why}.title`),
            heading: t(`visitor.appLink.gone.${why}.heading`),
            text: t(`visitor.appLink.gone.${why}.text`),
          },
        ]),
      ) as Record<AppLinkGone, { title: string; heading: string; text: string }>,
    },
    data: {
      heading: t('visitor.data.heading'),
      text: t('visitor.data.text'),
      button: t('visitor.data.button'),
      fileName: t('visitor.data.fileName'),
    },
    emails: {
      heading: t('visitor.emails.heading'),
      subscribed: t('visitor.emails.subscribed'),
      unsubscribed: t('visitor.emails.unsubscribed'),
      stop: t('visitor.emails.stop'),
      restart: t('visitor.emails.restart'),
      oneClickDone: t('visitor.emails.oneClickDone'),
    },
    remove: {
      heading: t('visitor.remove.heading'),
      text: t('visitor.remove.text'),
      button: t('visitor.remove.button'),
      confirmHeading: t('visitor.remove.confirmHeading'),
      confirmText: t('visitor.remove.confirmText'),
      confirm: t('visitor.remove.confirm'),
      cancel: t('visitor.remove.cancel'),
    },
    notices: Object.fromEntries(NOTICES.map((notice) => [notice, t(`visitor.notices.${notice}`)])) as Record<VisitorNotice, string>,
    gone: Object.fromEntries(
      GONE.map((why) => [
        why,
        { title: t(`visitor.gone.${why}.title`), heading: t(`visitor.gone.${why}.heading`), text: t(`visitor.gone.${why}.text`) },
      ]),
    ) as Record<VisitorGone, { title: string; heading: string; text: string }>,
    home: t('visitor.home'),
  }
}

export type VisitorContent = ReturnType<typeof visitorContent>

/** The page in English: what the tests read when they do not say otherwise. */
export const englishVisitorContent: VisitorContent = visitorContent(DEFAULT_LOCALE)
