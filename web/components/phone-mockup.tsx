import { BadgeCheck, Heart, SlidersHorizontal, X } from 'lucide'
import { SvgIcon } from './svg-icon'
import type { Content } from '../content'
import { DogArt } from './dog-art'

/**
 * The app's match screen drawn in HTML and CSS: no image to download, crisp at any size. Every
 * label may wrap where its words end (the title, the health rows, the actions), so the longest
 * language holds in the phone's 272 px with whatever font the visitor's system substitutes
 * (tests/browser/hero-words.test.ts: every word whole in six languages at 320, 390 and 1280 px).
 */
export function PhoneMockup({ content }: { content: Content['hero']['phone'] }) {
  const { dog, compatibility } = content
  return (
    <div role="img" aria-label={content.ariaLabel} className="relative mx-auto w-[272px] shrink-0 sm:w-[300px]">
      <div aria-hidden="true" className="absolute -inset-10 rounded-full bg-brand-500/30 blur-3xl" />
      <div className="relative rounded-[3rem] border border-white/15 bg-stone-900 p-3 shadow-2xl ring-1 ring-black/40">
        <div className="absolute top-5 left-1/2 z-10 h-6 w-24 -translate-x-1/2 rounded-full bg-black" />
        <div className="overflow-hidden rounded-[2.4rem] bg-stone-50 pt-12 text-stone-900">
          <div className="flex items-center justify-between gap-2 px-5">
            <div className="min-w-0">
              <p className="text-xs font-medium text-stone-600">{content.greeting}</p>
              <p className="text-lg leading-tight font-bold">{content.title}</p>
            </div>
            <span className="grid size-9 shrink-0 place-items-center rounded-full bg-white shadow-sm">
              <SvgIcon icon={SlidersHorizontal} className="size-4 text-stone-700" />
            </span>
          </div>
          <div className="m-4 overflow-hidden rounded-3xl bg-white shadow-md">
            <div className="relative grid h-40 place-items-center bg-gradient-to-br from-amber-200 via-brand-200 to-brand-400">
              <DogArt drawing="dogFace" className="size-28" />
              <span className="absolute top-3 right-3 rounded-full bg-white/90 px-2.5 py-1 text-xs font-bold text-brand-800 shadow">
                {compatibility.value}% {compatibility.label}
              </span>
            </div>
            <div className="p-4">
              <div className="flex items-center gap-1.5">
                <p className="text-lg font-bold">{dog.name}</p>
                <SvgIcon icon={BadgeCheck} className="size-5 fill-sky-500 text-white" />
              </div>
              <p className="flex flex-wrap gap-x-2 text-sm text-stone-600">
                <span className="whitespace-nowrap">{dog.breed}</span>
                <span className="whitespace-nowrap">{dog.age}</span>
              </p>
              <div className="mt-3 flex flex-wrap gap-1.5">
                {content.badges.map((badge) => (
                  <span
                    key={badge}
                    className="whitespace-nowrap rounded-full bg-emerald-50 px-2 py-0.5 text-[11px] font-semibold text-emerald-800"
                  >
                    {badge}
                  </span>
                ))}
              </div>
              <dl className="mt-3 divide-y divide-stone-200 rounded-xl bg-stone-100 px-3 py-1">
                {content.health.map((item) => (
                  <div key={item.label} className="flex flex-wrap items-baseline justify-end gap-x-2 py-1.5">
                    <dt className="mr-auto text-xs text-stone-600">{item.label}</dt>
                    <dd className="text-xs font-bold text-stone-900">{item.value}</dd>
                  </div>
                ))}
              </dl>
            </div>
          </div>
          <div className="flex flex-wrap items-center justify-center gap-2 px-2 pb-7">
            <span className="flex h-11 items-center gap-1.5 rounded-full bg-white px-3 text-sm font-semibold text-stone-700 shadow">
              <SvgIcon icon={X} className="size-4" />
              {content.actions.pass}
            </span>
            <span className="flex h-11 items-center gap-1.5 rounded-full bg-brand-700 px-3 text-sm font-semibold text-white shadow">
              <SvgIcon icon={Heart} className="size-4 fill-current" />
              {content.actions.connect}
            </span>
          </div>
        </div>
      </div>
    </div>
  )
}
