// Non-text contrast (WCAG 1.4.11) as a person sees it: every icon against the colour right behind
// it, and every tile an icon sits on against the surface around the tile, at least 3:1.
import type { Page } from 'playwright-core'

export interface ContrastFinding {
  what: string
  ratio: number
}

/** Measures in the page; `root` selects where (the whole page by default), `skip` what to leave out. */
export function measureIconContrast(page: Page, skip: string): Promise<ContrastFinding[]> {
  return page.evaluate((skipSelector) => {
    // Any CSS colour (Tailwind 4 computes oklch) to sRGB bytes, through a canvas pixel.
    const canvas = document.createElement('canvas').getContext('2d', { willReadFrequently: true })
    if (!canvas) throw new Error('no canvas')
    const rgba = (color: string): [number, number, number, number] => {
      canvas.clearRect(0, 0, 1, 1)
      canvas.fillStyle = '#000'
      canvas.fillStyle = color
      canvas.fillRect(0, 0, 1, 1)
      const [r = 0, g = 0, b = 0] = canvas.getImageData(0, 0, 1, 1).data
      const alpha = /\/\s*([\d.]+)(%?)\)|rgba\([^)]*,\s*([\d.]+)\)/.exec(color)
      const a = alpha ? Number(alpha[1] ?? alpha[3]) / (alpha[2] ? 100 : 1) : color === 'transparent' ? 0 : 1
      return [r, g, b, a]
    }
    /** The opaque colour behind an element's content: its own and its ancestors' backgrounds, composited. */
    const surface = (element: Element | null): [number, number, number] | undefined => {
      const layers: [number, number, number, number][] = []
      for (let e = element; e; e = e.parentElement) {
        const style = getComputedStyle(e)
        if (style.backgroundImage !== 'none') return undefined // a gradient: not one colour to measure against
        const color = rgba(style.backgroundColor)
        if (color[3] > 0) layers.push(color)
        if (color[3] >= 1) break
      }
      let [r, g, b] = [255, 255, 255]
      for (const [lr, lg, lb, a] of layers.reverse()) [r, g, b] = [lr * a + r * (1 - a), lg * a + g * (1 - a), lb * a + b * (1 - a)]
      return [r, g, b]
    }
    const luminance = ([r, g, b]: [number, number, number]) => {
      const channel = (c: number) => ((c /= 255) <= 0.04045 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4)
      return 0.2126 * channel(r) + 0.7152 * channel(g) + 0.0722 * channel(b)
    }
    const ratio = (a: [number, number, number], b: [number, number, number]) => {
      const [hi, lo] = [luminance(a), luminance(b)].sort((x, y) => y - x) as [number, number]
      return Math.round(((hi + 0.05) / (lo + 0.05)) * 100) / 100
    }
    const describe = (e: Element) =>
      `${e.closest('section, header, footer')?.id || e.closest('section, header, footer')?.tagName.toLowerCase()} ${e.parentElement?.className}`.slice(
        0,
        120,
      )
    const findings: { what: string; ratio: number }[] = []
    for (const icon of document.querySelectorAll('svg')) {
      if (skipSelector && icon.closest(skipSelector)) continue
      if (!(icon as SVGElement & { checkVisibility(): boolean }).checkVisibility()) continue
      const style = getComputedStyle(icon)
      const paint = rgba(style.stroke !== 'none' ? style.stroke : style.fill)
      const behind = surface(icon.parentElement)
      if (!behind) continue
      findings.push({ what: `icon in ${describe(icon)}`, ratio: ratio([paint[0], paint[1], paint[2]], behind) })
      // The tile: a box of its own colour that holds the icon and nothing else (a button or a
      // badge with words is known by its words, not by its shape).
      const tile = icon.parentElement
      if (tile && tile.textContent?.trim() === '' && rgba(getComputedStyle(tile).backgroundColor)[3] > 0) {
        const around = surface(tile.parentElement)
        if (around) findings.push({ what: `tile in ${describe(icon)}`, ratio: ratio(behind, around) })
      }
    }
    return findings
  }, skip)
}
