// A switch of language keeps the address's query and fragment: the inviter's code, the campaign's
// parameters and the section the visitor was reading go to the other language's page too. The
// prerendered links are bare (`/de/`); the script adds what this visit's address carries. Without
// a script, the server does it from the Referer (server/http/landing-page.ts).

/** Each language link of the page (the switcher's, by its `hreflang`) with this address's query and fragment. */
export function carryAddressToLanguageLinks(root: ParentNode, address: Pick<Location, 'search' | 'hash'>): void {
  if (address.search === '' && address.hash === '') return
  for (const link of root.querySelectorAll<HTMLAnchorElement>('header a[hreflang]')) {
    const path = link.getAttribute('href')?.split(/[?#]/)[0]
    if (path !== undefined) link.setAttribute('href', `${path}${address.search}${address.hash}`)
  }
}
