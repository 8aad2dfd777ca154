import { StrictMode } from 'react'
import { renderToString } from 'react-dom/server'
import { App } from './app'
import { content } from './content'

export interface Prerendered {
  html: string
  title: string
  description: string
  lang: string
}

/** Used only by the build (scripts/build.mjs): the page as HTML, and what goes in its head. */
export function render(): Prerendered {
  const html = renderToString(
    <StrictMode>
      <App />
    </StrictMode>,
  )
  return { html, ...content.meta }
}
