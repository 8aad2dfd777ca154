// The parts of the page that need JavaScript. The prerender renders the whole page; the browser
// hydrates only these, each as its own root, so the static sections cost no script at all
// (docs/decisions/002-islands.md). One definition serves both sides, so their HTML matches.
import type { ReactNode } from 'react'
import { Toaster } from './components/ui/toaster'
import { footer, PRIVACY_ID, toaster, waitlist } from './content'
import { Footer } from './sections/footer'
import { Waitlist } from './sections/waitlist'

export const islands = {
  waitlist: () => <Waitlist content={waitlist} privacyId={PRIVACY_ID} />,
  footer: () => <Footer content={footer} privacyId={PRIVACY_ID} />,
  toaster: () => <Toaster content={toaster} />,
} satisfies Record<string, () => ReactNode>

export type IslandName = keyof typeof islands

/** Where an island sits in the page: a container the browser finds by `data-island`. */
export function Island({ name }: { name: IslandName }) {
  const render = islands[name]
  return <div data-island={name}>{render()}</div>
}
