// The waitlist on a partner's page (docs/partners.md): `<script src="SITE_URL/embed.js"
// data-partner="KEY" async>` draws the form where the tag stands, inside a shadow root of its own,
// styled by a constructed stylesheet (a host's CSP without 'unsafe-inline' allows it; its CSS
// cannot reach in). No framework, no cookie, no storage, no request but to the site it came from.
// Every data-* value is read as text and used only when it is one the script knows. The box shows
// once its session has come (the form's token, words and meter) and keeps its height from then on:
// every message it can show is laid out, unseen, where a message appears.
import { LOCALES, type Locale } from '../../contract/locales'
import {
  ACCENT_PATTERN,
  embedJoinPath,
  type EmbedMeter,
  type EmbedSession,
  embedSessionPath,
  type EmbedWords,
  PARTNER_KEY_PATTERN,
} from '../../contract/partners'
import { embedCss, fillRules, readTheme } from './styles'

type Outcome = 'joined' | 'invalid' | 'expired' | 'busy' | 'failed'

const warn = (message: string) => console.warn(`Kennect waitlist: ${message}`)

/** data-lang when it is one of ours, else the first of the browser's languages that is, else English. */
function languageOf(asked: string | undefined): Locale {
  for (const tag of [asked ?? '', ...navigator.languages]) {
    const primary = tag.toLowerCase().split('-')[0]
    const found = LOCALES.find((locale) => locale === primary)
    if (found) return found
  }
  return 'en'
}

/** An element with its class and text (text only: never HTML). */
function el<K extends keyof HTMLElementTagNameMap>(tag: K, className = '', text = ''): HTMLElementTagNameMap[K] {
  const element = document.createElement(tag)
  if (className) element.className = className
  if (text) element.textContent = text
  return element
}

/** A message as the page's toasts say it: its title, then its words. */
function message(words: { title: string; description: string }, className = ''): HTMLParagraphElement {
  const p = el('p', className)
  p.append(el('b', '', words.title), ` ${words.description}`)
  return p
}

function meterOf(meter: EmbedMeter): HTMLElement {
  const box = el('div', 'k-meter')
  if (meter.heading) box.append(el('p', 'k-meter-heading', meter.heading))
  box.append(el('p', '', meter.sentence))
  const bars = el('div', 'k-bars')
  bars.setAttribute('aria-hidden', 'true')
  meter.bars.forEach((bar, i) => {
    const row = el('div', 'k-bar')
    const track = el('span', 'k-track')
    track.append(el('span', `k-fill k-fill-${i}`))
    row.append(el('span', '', bar.label), track)
    bars.append(row)
  })
  box.append(bars)
  if (meter.ready) box.append(el('p', 'k-ready', meter.ready))
  if (meter.target) box.append(el('p', 'k-target', meter.target))
  return box
}

function start(script: HTMLScriptElement): void {
  const site = new URL(script.src).origin
  const data = script.dataset
  const key = data.partner ?? ''
  if (!PARTNER_KEY_PATTERN.test(key)) return warn('data-partner does not hold a partner key')
  const accent = ACCENT_PATTERN.test(data.accent ?? '') ? (data.accent ?? null) : null
  const query = `?lang=${languageOf(data.lang)}${data.meter === 'off' ? '&meter=off' : ''}`
  const ask = (): Promise<EmbedSession> =>
    fetch(`${site}${embedSessionPath(key)}${query}`, { credentials: 'omit' }).then((answer) =>
      answer.ok ? answer.json() : Promise.reject(new Error(`${answer.status}`)),
    )
  // An element of a name no page styles (a rule for every div would reach a div), holding the shadow root.
  const host = document.createElement('kennect-waitlist')
  script.before(host)
  ask().then(
    (session) => {
      const root = host.attachShadow({ mode: 'open' })
      const sheet = new CSSStyleSheet()
      sheet.replaceSync(embedCss(accent) + fillRules(session.meter?.bars.map((bar) => bar.percent) ?? []))
      root.adoptedStyleSheets = [sheet]
      root.append(draw(session, readTheme(data.theme), site, key, ask))
    },
    (error: unknown) => {
      host.remove()
      warn(`the form is not available here (${error instanceof Error ? error.message : String(error)})`)
    },
  )
}

function draw(session: EmbedSession, theme: string, site: string, key: string, ask: () => Promise<EmbedSession>): HTMLElement {
  const words: EmbedWords = session.words
  let token = session.token
  const box = el('div', 'k-box')
  box.dataset.theme = theme
  box.lang = session.locale
  // The introduction, until a message takes its place.
  const intro = el('p', 'k-intro')
  intro.append(el('b', '', session.product), ` · ${words.intro}`)

  const form = el('form')
  form.setAttribute('aria-label', words.title)
  const trap = el('div', 'k-trap')
  trap.setAttribute('aria-hidden', 'true')
  const bait = el('input')
  bait.name = 'website'
  bait.tabIndex = -1
  bait.autocomplete = 'off'
  const baitLabel = el('label', '', words.honeypotLabel)
  baitLabel.append(bait)
  trap.append(baitLabel)
  const label = el('label', 'k-label', words.emailLabel)
  label.htmlFor = 'k-email'
  const input = el('input', 'k-input')
  Object.assign(input, {
    id: 'k-email',
    name: 'email',
    type: 'email',
    required: true,
    autocomplete: 'email',
    placeholder: words.emailPlaceholder,
  })
  input.inputMode = 'email'
  // Both of the button's words laid out, one seen: its width never changes while it works.
  const button = el('button', 'k-button k-stack')
  button.type = 'submit'
  const idle = el('span', '', words.submit)
  const working = el('span', 'k-sizer', words.submitting)
  button.append(idle, working)
  const row = el('div', 'k-row')
  row.append(input, button)
  form.append(trap, label, row)

  const messages: Record<Outcome, { title: string; description: string }> = {
    joined: words.joined,
    invalid: words.invalid,
    expired: words.expired,
    busy: words.busy,
    failed: words.failed,
  }
  const status = el('div', 'k-status k-stack')
  status.append(intro)
  for (const words of Object.values(messages)) {
    const sizer = message(words, 'k-sizer')
    sizer.setAttribute('aria-hidden', 'true')
    status.append(sizer)
  }
  const live = el('div')
  live.setAttribute('role', 'status')
  status.append(live)

  const privacy = el('p', 'k-privacy')
  const link = el('a', '', words.privacyLink)
  Object.assign(link, { href: session.privacyUrl, target: '_blank', rel: 'noopener' })
  privacy.append(link)
  box.append(status, form, privacy)
  if (session.meter) box.append(meterOf(session.meter))

  let busy = false
  const setBusy = (on: boolean) => {
    busy = on
    button.setAttribute('aria-disabled', String(on))
    idle.className = on ? 'k-sizer' : ''
    working.className = on ? '' : 'k-sizer'
  }
  form.addEventListener('submit', (event) => {
    event.preventDefault()
    if (busy) return
    setBusy(true)
    fetch(`${site}${embedJoinPath(key)}`, {
      method: 'POST',
      credentials: 'omit',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: input.value, locale: session.locale, token, website: bait.value }),
    })
      .then(async (answer): Promise<Outcome> => {
        if (answer.status === 201) return 'joined'
        if (answer.status === 429) return 'busy'
        const code = answer.status === 400 ? ((await answer.json()) as { code?: string }).code : undefined
        return code === 'form_expired' ? 'expired' : code === 'invalid_email' ? 'invalid' : 'failed'
      })
      .catch((): Outcome => 'failed')
      .then((outcome) =>
        // A form open too long: a fresh token, and the button busy until the join takes it (a press
        // sooner would be answered as a bot's, stored nothing, and read as joined).
        outcome === 'expired'
          ? ask().then(
              (fresh) => {
                token = fresh.token
                // A quarter of a second more: another instance's clock may run a little behind.
                return new Promise<Outcome>((done) => setTimeout(() => done(outcome), fresh.readyInMs + 250))
              },
              () => outcome,
            )
          : outcome,
      )
      .then((outcome) => {
        // docs/requirements.md#the-waitlist-form: success clears the form; a failure keeps what was typed.
        if (outcome === 'joined') form.reset()
        intro.className = 'k-intro k-sizer'
        live.replaceChildren(message(messages[outcome]))
        live.firstElementChild?.setAttribute('data-tone', outcome === 'joined' ? 'ok' : 'bad')
        setBusy(false)
      })
  })
  return box
}

// A classic script (currentScript is null in a module): it knows its tag while it first runs.
const script = document.currentScript
if (script instanceof HTMLScriptElement) start(script)
