import { about, audiences, features, header, hero, howItWorks, privacy, trust, waitlist, whyChoose } from './content'
import { Island } from './islands'
import { About } from './sections/about'
import { Audiences } from './sections/audiences'
import { Features } from './sections/features'
import { Hero } from './sections/hero'
import { HowItWorks } from './sections/how-it-works'
import { Privacy } from './sections/privacy'
import { SiteHeader } from './sections/site-header'
import { Trust } from './sections/trust'
import { WhyChoose } from './sections/why-choose'

/** The whole page, as the prerender writes it; `Island`s are the parts the browser hydrates. */
export function App() {
  return (
    <>
      <SiteHeader content={header} waitlistId={waitlist.id} />
      <main>
        <Hero content={hero} waitlistId={waitlist.id} />
        <About content={about} />
        <Audiences content={audiences} />
        <Features content={features} />
        <HowItWorks content={howItWorks} />
        <WhyChoose content={whyChoose} />
        <Trust content={trust} />
        <Island name="waitlist" />
        <Privacy content={privacy} />
      </main>
      <Island name="footer" />
      <Island name="toaster" />
    </>
  )
}
