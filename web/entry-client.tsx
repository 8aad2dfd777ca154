import { StrictMode, startTransition } from 'react'
import { hydrateRoot } from 'react-dom/client'
import { type IslandName, type IslandWords, ISLAND_WORDS_ID, islands, OPTIONAL_ISLANDS } from './islands'
import { carryAddressToLanguageLinks } from './lib/language-links'
import './styles.css'

// The islands' words, in the page's language, as the prerender wrote them (web/islands.tsx).
const words = JSON.parse(document.getElementById(ISLAND_WORDS_ID)?.textContent ?? 'null') as IslandWords | null
if (!words) throw new Error(`the page has no #${ISLAND_WORDS_ID} block`)

carryAddressToLanguageLinks(document, location)
// A click on a section's link changes the fragment: the language links follow it.
addEventListener('hashchange', () => carryAddressToLanguageLinks(document, location))

// In a transition, React hydrates in slices of a few milliseconds and lets the browser in between:
// no long task on a slow phone, so nothing the visitor does waits behind the hydration.
startTransition(() => {
  for (const [name, render] of Object.entries(islands) as [IslandName, (words: IslandWords) => React.ReactNode][]) {
    const container = document.querySelector(`[data-island="${name}"]`)
    if (!container && OPTIONAL_ISLANDS.includes(name)) continue
    if (!container) throw new Error(`the page has no "${name}" island`)
    hydrateRoot(container, <StrictMode>{render(words)}</StrictMode>)
  }
})
