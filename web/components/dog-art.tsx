// Dogs for the page: Microsoft's Fluent Emoji, flat style (MIT licence, @iconify-icons/fluent-emoji-flat),
// one module per drawing so only these reach the page. In the hero, inline SVG: no request before
// the first paint, crisp at any size. Below the fold, the same drawings as SVG files the build
// writes (`artFiles`), loaded lazily: they cost the HTML nothing and load as the visitor scrolls
// near them. Decorative: hidden from screen readers, since the words beside each say what it shows.
import dog from '@iconify-icons/fluent-emoji-flat/dog'
import dogFace from '@iconify-icons/fluent-emoji-flat/dog-face'
import poodle from '@iconify-icons/fluent-emoji-flat/poodle'
import { cn } from '../lib/cn'

const drawings = { dog, dogFace, poodle }
export type Drawing = keyof typeof drawings

export function DogArt({ drawing, className }: { drawing: Drawing; className?: string }) {
  const { body, width = 32, height = 32 } = drawings[drawing]
  return (
    <svg
      viewBox={`0 0 ${width} ${height}`}
      aria-hidden="true"
      className={className}
      // The drawing's own markup, from the package (paths and fills only).
      dangerouslySetInnerHTML={{ __html: body }}
    />
  )
}

const ART_PATH = '/art'
const fileName = (drawing: Drawing) => drawing.replace(/[A-Z]/g, (letter) => `-${letter.toLowerCase()}`)

/** The SVG files of the drawings, by path, for the build to write beside the page. */
export function artFiles(): Record<string, string> {
  return Object.fromEntries(
    Object.entries(drawings).map(([drawing, { body, width = 32, height = 32 }]) => [
      `${ART_PATH}/${fileName(drawing as Drawing)}.svg`,
      `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 ${width} ${height}">${body}</svg>\n`,
    ]),
  )
}

/** A drawing below the fold: a lazily loaded file, sized so it shifts nothing when it arrives. */
export function DogPicture({
  drawing,
  size,
  className,
  facing = 'left',
}: {
  drawing: Drawing
  size: number
  className?: string
  facing?: 'left' | 'right'
}) {
  return (
    <img
      src={`${ART_PATH}/${fileName(drawing)}.svg`}
      alt=""
      width={size}
      height={size}
      loading="lazy"
      decoding="async"
      className={cn(facing === 'right' && '-scale-x-100', className)}
    />
  )
}

/** Two dogs that have found each other: the golden one and the poodle, a heart between them. */
export function MatchedPair({ className }: { className?: string }) {
  return (
    <div aria-hidden="true" className={cn('flex items-end justify-center gap-1', className)}>
      <DogPicture drawing="dog" facing="right" size={96} className="size-20 sm:size-24" />
      <svg viewBox="0 0 24 24" className="mb-10 size-7 fill-rose-500 sm:mb-12">
        <path d="M12 21s-7.5-4.6-9.6-9.1C.8 8.5 2.7 4.5 6.6 4.2c2.1-.2 3.7.9 5.4 2.8 1.7-1.9 3.3-3 5.4-2.8 3.9.3 5.8 4.3 4.2 7.7C19.5 16.4 12 21 12 21Z" />
      </svg>
      <DogPicture drawing="poodle" size={96} className="size-20 sm:size-24" />
    </div>
  )
}
