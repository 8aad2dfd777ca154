import { Toaster } from './components/ui/toaster'
import { content } from './content'
import { About } from './sections/about'
import { Audiences } from './sections/audiences'
import { Features } from './sections/features'
import { Footer } from './sections/footer'
import { Hero } from './sections/hero'
import { HowItWorks } from './sections/how-it-works'
import { Trust } from './sections/trust'
import { Waitlist } from './sections/waitlist'
import { WhyChoose } from './sections/why-choose'

export function App() {
  return (
    <>
      <Hero content={content.hero} waitlistId={content.waitlist.id} />
      <main>
        <About content={content.about} />
        <Audiences content={content.audiences} />
        <Features content={content.features} />
        <HowItWorks content={content.howItWorks} />
        <WhyChoose content={content.whyChoose} />
        <Trust content={content.trust} />
        <Waitlist content={content.waitlist} />
      </main>
      <Footer content={content.footer} />
      <Toaster content={content.toaster} />
    </>
  )
}
