// BLOCK_DISPOSABLE_EMAIL=1: the list is disposable-email-domains-js, a maintained npm copy of the
// community blocklist (github.com/disposable-email-domains); updating it is `npm update`.
import { disposableEmailBlocklistSet } from 'disposable-email-domains-js'

/** True for a listed domain and for any subdomain of one (`x.mailinator.com`). */
export function disposableDomainCheck(): (domain: string) => boolean {
  const listed = disposableEmailBlocklistSet()
  return (domain) => {
    const labels = domain.toLowerCase().split('.')
    for (let i = 0; i < labels.length - 1; i++) if (listed.has(labels.slice(i).join('.'))) return true
    return false
  }
}
