// The iframe form (/embed/<key>) and the thank-you page of a partner's plain form: the script's
// form as HTML that works with no script at all (docs/partners.md). The same classes and layout as
// the script draws (web/embed/embed.ts), the same stylesheet (./styles.ts); what the last post came
// to is said in the cell where every message is laid out, so the box keeps its height.
import type { ReactNode } from 'react'
import { EMBED_OUTCOMES, type EmbedMeter, type EmbedOutcome, type EmbedPageView, type EmbedWords } from '../../contract/partners'

const outcomeWords = (words: EmbedWords): Record<EmbedOutcome, { title: string; description: string }> => ({
  joined: words.joined,
  invalid: words.invalid,
  expired: words.expired,
  busy: words.busy,
  error: words.failed,
})

export function EmbedPage({
  view,
  words,
  meter,
  product,
}: {
  view: EmbedPageView
  words: EmbedWords
  meter: EmbedMeter | null
  product: string
}) {
  const messages = outcomeWords(words)
  const shown = view.sent === null ? null : messages[view.sent]
  return (
    <div className="k-box" data-theme={view.theme}>
      <div className="k-status k-stack">
        {/* The introduction, until a message takes its place. */}
        <p className={shown ? 'k-intro k-sizer' : 'k-intro'}>
          <b>{product}</b> · {words.intro}
        </p>
        {EMBED_OUTCOMES.map((outcome) => (
          <Message key={outcome} words={messages[outcome]} sizer />
        ))}
        <div role="status">{shown ? <Message words={shown} tone={view.sent === 'joined' ? 'ok' : 'bad'} /> : null}</div>
      </div>
      <form method="post" action={view.action} aria-label={words.title}>
        <input type="hidden" name="token" value={view.token} />
        <input type="hidden" name="locale" value={view.locale} />
        <div className="k-trap" aria-hidden="true">
          <label htmlFor="k-website">{words.honeypotLabel}</label>
          <input id="k-website" name="website" type="text" tabIndex={-1} autoComplete="off" />
        </div>
        <label className="k-label" htmlFor="k-email">
          {words.emailLabel}
        </label>
        <div className="k-row">
          <input
            className="k-input"
            id="k-email"
            name="email"
            type="email"
            required
            autoComplete="email"
            inputMode="email"
            placeholder={words.emailPlaceholder}
          />
          <button className="k-button" type="submit">
            {words.submit}
          </button>
        </div>
      </form>
      <p className="k-privacy">
        <a href={view.privacyUrl} target="_blank" rel="noopener">
          {words.privacyLink}
        </a>
      </p>
      {meter ? <Meter meter={meter} /> : null}
    </div>
  )
}

function Message({ words, sizer = false, tone }: { words: { title: string; description: string }; sizer?: boolean; tone?: 'ok' | 'bad' }) {
  return (
    <p className={sizer ? 'k-sizer' : undefined} aria-hidden={sizer ? true : undefined} data-tone={tone}>
      <b>{words.title}</b> {words.description}
    </p>
  )
}

/** The meter: the sentence says it all; the bars (drawn from the figures shown) are for the eye. */
export function Meter({ meter }: { meter: EmbedMeter }): ReactNode {
  return (
    <div className="k-meter">
      {meter.heading ? <p className="k-meter-heading">{meter.heading}</p> : null}
      <p>{meter.sentence}</p>
      <div aria-hidden="true" className="k-bars">
        {meter.bars.map((bar, i) => (
          <div key={bar.label} className="k-bar">
            <span>{bar.label}</span>
            <span className="k-track">
              <span className={`k-fill k-fill-${i}`} />
            </span>
          </div>
        ))}
      </div>
      {meter.ready ? <p className="k-ready">{meter.ready}</p> : null}
      {meter.target ? <p className="k-target">{meter.target}</p> : null}
    </div>
  )
}
