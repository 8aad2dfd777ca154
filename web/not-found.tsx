import { PawPrint } from 'lucide'
import { SvgIcon } from './components/svg-icon'
import type { Content } from './content'

/** The page for an unknown address: the site's look, a way home, no script. */
export function NotFound({ content, brand, home }: { content: Content['notFound']; brand: string; home: string }) {
  return (
    <main className="grid min-h-screen place-items-center bg-stone-950 px-5 text-white">
      <div className="max-w-md text-center">
        <p className="inline-flex items-center gap-2 text-xl font-bold">
          <span className="grid size-9 place-items-center rounded-xl bg-brand-600">
            <SvgIcon icon={PawPrint} className="size-5" />
          </span>
          {brand}
        </p>
        <h1 className="mt-8 text-3xl font-extrabold tracking-tight text-balance sm:text-4xl">{content.heading}</h1>
        <p className="mt-4 text-lg text-pretty text-stone-300">{content.text}</p>
        <a
          href={home}
          className="mt-8 inline-flex h-12 items-center rounded-xl bg-brand-700 px-6 font-semibold text-white hover:bg-brand-800 focus-visible:outline-none focus-visible:ring-4 focus-visible:ring-brand-300"
        >
          {content.home}
        </a>
      </div>
    </main>
  )
}
