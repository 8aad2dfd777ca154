import { PawPrint } from 'lucide'
import { SvgIcon } from '../components/svg-icon'
import { useSyncExternalStore } from 'react'
import { buttonVariants } from '../components/ui/button'
import { cn } from '../lib/cn'
import type { Content } from '../content'
import { toast } from '../lib/toast-store'

/** The year never changes while a page is open: nothing to subscribe to. */
const noChanges = () => () => undefined
const thisYear = () => new Date().getFullYear()
const buildYear = () => __BUILD_YEAR__

export function Footer({ content, privacyId }: { content: Content['footer']; privacyId: string }) {
  // The prerender writes the build year (the server snapshot); hydration starts from it, so the
  // HTML matches, then React renders the visit's year if it is a later one.
  const year = useSyncExternalStore(noChanges, thisYear, buildYear)

  return (
    <footer className="bg-stone-950 text-stone-300 dark:border-t dark:border-white/10">
      <div className="mx-auto grid max-w-6xl gap-10 px-5 py-14 sm:grid-cols-[2fr_1fr] sm:px-8">
        <div>
          <p className="flex items-center gap-2 text-xl font-bold text-white">
            <span className="grid size-9 place-items-center rounded-xl bg-brand-600">
              <SvgIcon icon={PawPrint} className="size-5" />
            </span>
            {content.name}
          </p>
          <p className="mt-4 max-w-sm">{content.tagline}</p>
        </div>
        <div>
          <h2 className="text-sm font-semibold tracking-wide text-white uppercase">{content.supportHeading}</h2>
          {/* A real mailto: link, so it works before the script arrives and without it; the
              script shows the spec's toast with the address instead of opening a mail program. */}
          <a
            href={`mailto:${content.supportEmail}`}
            className={cn(buttonVariants({ variant: 'link', size: 'inline' }), 'mt-4 text-stone-300 hover:text-white')}
            onClick={(event) => {
              event.preventDefault()
              toast({ ...content.supportToast, link: { text: content.supportEmail, href: `mailto:${content.supportEmail}` } })
            }}
          >
            {content.contactSupport}
          </a>
          <a href={`#${privacyId}`} className="mt-3 block text-stone-300 underline-offset-4 hover:text-white hover:underline">
            {content.privacyLink}
          </a>
        </div>
      </div>
      <div className="border-t border-white/10">
        <p className="mx-auto max-w-6xl px-5 py-6 text-sm text-stone-400 sm:px-8">{content.copyright.replace('{year}', String(year))}</p>
      </div>
    </footer>
  )
}
