// The visitor's page's only script (scripts/build.mjs builds it from this file): Copy and Share for
// the invite link (and Copy for an app link's code, on that link's page), shown where the browser
// can do them, and the kennel clubs following the country chosen (./clubs.ts). Without it the link
// and the code are selectable text, the e-mail and WhatsApp links still work, and the clubs follow
// the country once the profile is saved.
import { followCountry } from './clubs'

const country = document.getElementById('country')
const clubs = document.getElementById('club')
if (country instanceof HTMLSelectElement && clubs instanceof HTMLSelectElement) followCountry(country, clubs)

for (const button of document.querySelectorAll<HTMLButtonElement>('button[data-copy]')) {
  if (!navigator.clipboard) continue
  // Where the button says it is done: its own status line (data-status), else the invite link's.
  const announcer = document.getElementById(button.dataset.status ?? 'invite-status')
  button.hidden = false
  button.addEventListener('click', () => {
    navigator.clipboard.writeText(button.dataset.copy ?? '').then(
      () => {
        if (announcer) announcer.textContent = button.dataset.done ?? ''
      },
      () => undefined, // refused (no permission): the link is still there to select
    )
  })
}

for (const button of document.querySelectorAll<HTMLButtonElement>('button[data-share]')) {
  if (typeof navigator.share !== 'function') continue
  button.hidden = false
  button.addEventListener('click', () => {
    const { share: url, title, text } = button.dataset
    // The person may close the share sheet: nothing to say then.
    navigator.share({ url, title, text }).catch(() => undefined)
  })
}
