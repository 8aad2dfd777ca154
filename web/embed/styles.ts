// The embed's one stylesheet (docs/partners.md): the script adopts it as a constructed stylesheet in
// its shadow root (no <style> element, no style attribute: a host's CSP without 'unsafe-inline'
// allows it), and the iframe page inlines it under its own hash. Its height depends on its width
// alone: every message it can show is laid out, unseen, in the one cell at its top where the
// introduction stands until a message takes its place (`.k-stack`), so showing one moves nothing.
import { ACCENT_PATTERN, type EmbedTheme } from '../../contract/partners'

/** The brand's orange (web/theme.css, brand-700): the button's colour when the partner names none. */
const BRAND = '#c2410c'

/** Black or white, whichever reads better on the accent (WCAG's relative luminance). */
export function textOn(accent: string): string {
  const [r = 0, g = 0, b = 0] = [1, 3, 5].map((i) => {
    const channel = parseInt(accent.slice(i, i + 2), 16) / 255
    return channel <= 0.04045 ? channel / 12.92 : ((channel + 0.055) / 1.055) ** 2.4
  })
  const luminance = 0.2126 * r + 0.7152 * g + 0.0722 * b
  // Contrast with white (1.05 / (L + 0.05)) against contrast with near-black (L + 0.05) / 0.06.
  return 1.05 / (luminance + 0.05) >= (luminance + 0.05) / 0.0605 ? '#fff' : '#1c1917'
}

const LIGHT =
  '--k-bg:#fff;--k-fg:#1c1917;--k-muted:#57534d;--k-line:#d6d3d1;--k-track:#e7e5e4;--k-field:#fff;--k-ok:#166534;--k-bad:#b91c1c'
const DARK =
  '--k-bg:#1c1917;--k-fg:#f5f5f4;--k-muted:#d6d3d1;--k-line:#57534d;--k-track:#44403b;--k-field:#0c0a09;--k-ok:#86efac;--k-bad:#fca5a5'

/**
 * The stylesheet, for a box with `data-theme` on `.k-box`. `accent` is used only when it is
 * `#rrggbb` (the script's data-accent, the iframe's ?accent=): anything else is the brand's.
 */
export function embedCss(accent: string | null = null): string {
  const color = accent !== null && ACCENT_PATTERN.test(accent) ? accent.toLowerCase() : BRAND
  return `:host{all:initial;display:block}
.k-box{${LIGHT};--k-accent:${color};--k-on-accent:${textOn(color)};box-sizing:border-box;max-width:36rem;margin:0;padding:16px;border:1px solid var(--k-line);border-radius:12px;background:var(--k-bg);color:var(--k-fg);font:16px/1.5 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;text-align:start}
.k-box[data-theme=dark]{${DARK}}
@media (prefers-color-scheme:dark){.k-box[data-theme=auto]{${DARK}}}
.k-box *{box-sizing:border-box}
.k-intro{color:var(--k-muted)}
.k-intro b{color:var(--k-fg)}
.k-label{display:block;margin:0 0 4px;font-size:14px;font-weight:600}
.k-row{display:flex;flex-wrap:wrap;gap:8px}
.k-input{flex:1 1 10rem;min-width:0;margin:0;padding:10px 12px;border:1px solid var(--k-line);border-radius:8px;background:var(--k-field);color:var(--k-fg);font:inherit}
.k-input:focus-visible,.k-button:focus-visible,.k-box a:focus-visible{outline:3px solid var(--k-accent);outline-offset:2px}
.k-button{display:grid;flex:0 0 auto;margin:0;padding:10px 16px;border:0;border-radius:8px;background:var(--k-accent);color:var(--k-on-accent);font:inherit;font-weight:600;cursor:pointer}
.k-button[aria-disabled=true]{cursor:progress;opacity:.8}
.k-stack{display:grid}
.k-stack>*{grid-area:1/1;margin:0}
.k-sizer{visibility:hidden}
.k-status{margin:0 0 12px;font-size:14px}
.k-status p{margin:0}
.k-status [data-tone=ok]{color:var(--k-ok)}
.k-status [data-tone=bad]{color:var(--k-bad)}
.k-privacy{margin:8px 0 0;font-size:12px;color:var(--k-muted)}
.k-box a{color:inherit;text-decoration:underline;text-underline-offset:2px}
.k-trap{position:absolute;left:-9999px;width:1px;height:1px;overflow:hidden}
.k-meter{display:grid;gap:6px;margin-top:12px;padding-top:12px;border-top:1px solid var(--k-line);font-size:14px}
.k-meter p{margin:0}
.k-meter-heading{font-weight:600}
.k-bars{display:grid;gap:6px}
.k-bar{display:grid;grid-template-columns:5.5rem 1fr;align-items:center;gap:8px;color:var(--k-muted)}
.k-track{height:8px;overflow:hidden;border-radius:4px;background:var(--k-track)}
.k-fill{display:block;height:100%;border-radius:4px;background:var(--k-accent)}
.k-ready{color:var(--k-ok);font-weight:600}
.k-target{color:var(--k-muted);font-size:12px}`
}

/** A theme as the `data-theme` value says it: light, dark, or the reader's (auto, also for anything else). */
export const readTheme = (value: string | null | undefined): EmbedTheme => (value === 'light' || value === 'dark' ? value : 'auto')

/** Each bar's width (`.k-fill-<i>`), drawn from the figure shown: rules of the same stylesheet, never a style attribute. */
export const fillRules = (percents: readonly number[]): string =>
  percents.map((percent, i) => `\n.k-fill-${i}{width:${Math.max(0, Math.min(100, Math.round(percent)))}%}`).join('')
