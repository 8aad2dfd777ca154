import { Star } from 'lucide'
import { SvgIcon } from './svg-icon'

/** Stars for people who see them; one sentence ("Rated 5 out of 5 stars") for screen readers. */
export function StarRating({ rating, max = 5, label }: { rating: number; max?: number; label: string }) {
  return (
    <div role="img" aria-label={label} className="flex gap-1">
      {Array.from({ length: max }, (_, i) => (
        <SvgIcon key={i} icon={Star} className={i < rating ? 'size-5 fill-amber-400 text-amber-500' : 'size-5 text-stone-300'} />
      ))}
    </div>
  )
}
