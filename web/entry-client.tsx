import { StrictMode } from 'react'
import { hydrateRoot } from 'react-dom/client'
import { type IslandName, islands } from './islands'
import './styles.css'

for (const [name, render] of Object.entries(islands) as [IslandName, () => React.ReactNode][]) {
  const container = document.querySelector(`[data-island="${name}"]`)
  if (!container) throw new Error(`the page has no "${name}" island`)
  hydrateRoot(container, <StrictMode>{render()}</StrictMode>)
}
