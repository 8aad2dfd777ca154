import type { Content } from './content'
import { Island, type IslandWords, IslandWordsBlock } from './islands'
import { About } from './sections/about'
import { Audiences } from './sections/audiences'
import { Features } from './sections/features'
import { Hero } from './sections/hero'
import { HowItWorks } from './sections/how-it-works'
import { Privacy } from './sections/privacy'
import { SiteHeader } from './sections/site-header'
import { Trust } from './sections/trust'
import { Waitlist } from './sections/waitlist'
import { WhyChoose } from './sections/why-choose'
import { PRIVACY_ID } from './anchors'

/** The words the islands need, from the page's content. */
export function islandWordsOf(content: Content): IslandWords {
  const { emailLabel, emailPlaceholder, submit, submitting, success, failure, honeypotLabel, typo } = content.waitlist
  return {
    locale: content.meta.lang,
    form: { emailLabel, emailPlaceholder, submit, submitting, success, failure, honeypotLabel, typo },
    footer: content.footer,
    toaster: content.toaster,
    ...(content.header.languages.hints.length > 0 ? { languageHints: content.header.languages.hints } : {}),
  }
}

/** The whole page in one language, as the prerender writes it; `Island`s are the parts the browser hydrates. */
export function App({ content }: { content: Content }) {
  const words = islandWordsOf(content)
  return (
    <>
      <SiteHeader content={content.header} waitlistId={content.waitlist.id} />
      <main>
        <Hero content={content.hero} waitlistId={content.waitlist.id} />
        <About content={content.about} />
        <Audiences content={content.audiences} />
        <Features content={content.features} />
        <HowItWorks content={content.howItWorks} />
        <WhyChoose content={content.whyChoose} />
        <Trust content={content.trust} />
        <Waitlist content={content.waitlist} privacyId={PRIVACY_ID}>
          <Island name="waitlist" words={words} />
        </Waitlist>
        <Privacy content={content.privacy} />
      </main>
      <Island name="footer" words={words} />
      <Island name="toaster" words={words} />
      {words.languageHints ? <Island name="languageHint" words={words} /> : null}
      <IslandWordsBlock words={words} />
    </>
  )
}
