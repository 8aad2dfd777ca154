import { StrictMode, startTransition } from 'react'
import { hydrateRoot } from 'react-dom/client'
import { type IslandName, islands } from './islands'
import './styles.css'

// In a transition, React hydrates in slices of a few milliseconds and lets the browser in between:
// no long task on a slow phone, so nothing the visitor does waits behind the hydration.
startTransition(() => {
  for (const [name, render] of Object.entries(islands) as [IslandName, () => React.ReactNode][]) {
    const container = document.querySelector(`[data-island="${name}"]`)
    if (!container) throw new Error(`the page has no "${name}" island`)
    hydrateRoot(container, <StrictMode>{render()}</StrictMode>)
  }
})
