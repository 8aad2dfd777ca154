// Every word of a partner's embed, in one of the six languages: the landing page's own words for
// the form and its answers (web/content.ts, as its toasts say them), and the visitor's page's for
// the meter (web/visitor/content.ts), so a word changed there changes here too. Used by the
// server's render module, never in a browser: the script gets its language's words with its session.
import { barPercent } from '../../contract/public-figures'
import type { Locale } from '../../contract/locales'
import type { EmbedMeter, EmbedMeterView, EmbedWords } from '../../contract/partners'
import { translator } from '../../locales/index'
import { pageContent } from '../content'
import { site } from '../site'
import { visitorContent } from '../visitor/content'

/** The form's words in a language. */
export function embedWords(locale: Locale): EmbedWords {
  const page = pageContent(locale)
  const waitlist = page.waitlist
  return {
    title: page.header.join,
    intro: page.hero.note,
    emailLabel: waitlist.emailLabel,
    emailPlaceholder: waitlist.emailPlaceholder,
    submit: waitlist.submit,
    submitting: waitlist.submitting,
    honeypotLabel: waitlist.honeypotLabel,
    privacyLink: waitlist.privacyLink,
    joined: waitlist.outcomes.joined,
    failed: waitlist.outcomes.error,
    invalid: waitlist.outcomes.invalid,
    expired: waitlist.outcomes.expired,
    busy: waitlist.outcomes.busy,
  }
}

/** The meter in a language: the visitor's page's sentence, bars, "ready" line and target for the same figures. */
export function embedMeter(view: EmbedMeterView, locale: Locale): EmbedMeter {
  const copy = visitorContent(locale).launch
  const country = new Intl.DisplayNames([locale], { type: 'region' }).of(view.country) ?? view.country
  if (view.kind === 'country') {
    const meter = view.meter
    return {
      heading: null,
      sentence: copy.meter(country, meter),
      bars: [
        { label: copy.breeders, percent: barPercent(meter.breeders, meter.target.breeders) },
        { label: copy.owners, percent: barPercent(meter.owners, meter.target.owners) },
      ],
      ready: meter.ready ? copy.ready : null,
      target: null,
    }
  }
  const meter = view.meter
  return {
    heading: translator(locale, { product: site.productName })('embed.meterHeading', { country }),
    sentence: copy.breedMeter(meter),
    bars: [
      { label: copy.studs, percent: barPercent(meter.studs, meter.target.studs) },
      { label: copy.dams, percent: barPercent(meter.dams, meter.target.dams) },
    ],
    ready: meter.ready ? copy.breedReady(meter.name) : null,
    target: copy.breedTarget(meter.target),
  }
}

/** Each language's words, made once, when first asked for (the render module answers every session with them). */
const made = new Map<Locale, EmbedWords>()
export function wordsIn(locale: Locale): EmbedWords {
  let words = made.get(locale)
  if (!words) made.set(locale, (words = embedWords(locale)))
  return words
}
