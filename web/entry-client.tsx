import { StrictMode } from 'react'
import { hydrateRoot } from 'react-dom/client'
import { type IslandName, islands } from './islands'
import './styles.css'

function hydrateIslands() {
  for (const [name, render] of Object.entries(islands) as [IslandName, () => React.ReactNode][]) {
    const container = document.querySelector(`[data-island="${name}"]`)
    if (!container) throw new Error(`the page has no "${name}" island`)
    hydrateRoot(container, <StrictMode>{render()}</StrictMode>)
  }
}

// The page is complete as HTML: let the browser paint it first, then attach behaviour. (The
// callback of a frame runs before that frame paints; a task queued from it runs after.)
requestAnimationFrame(() => setTimeout(hydrateIslands, 0))
