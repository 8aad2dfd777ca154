// The kennel clubs the visitor's page offers, their country's own first: in the page the server
// renders (the country as saved) and, with the page's script, as soon as a country is chosen.
import { COUNTRY_CLUB, KENNEL_CLUBS, type KennelClub } from '../../contract/visitor'

/** The clubs offered, the club of the country (a code, or '' for none) first. */
export function clubsFor(country: string | null): KennelClub[] {
  const own = Object.entries(COUNTRY_CLUB).find(([code]) => code === country)?.[1]
  return own ? [own, ...KENNEL_CLUBS.filter((club) => club !== own)] : [...KENNEL_CLUBS]
}

/**
 * Keeps the club list in that order while the visitor changes the country: the options move, the
 * club chosen stays chosen, the "none" option (no club's value) stays first. Without the script
 * the list follows once the profile is saved.
 */
export function followCountry(country: HTMLSelectElement, clubs: HTMLSelectElement): void {
  country.addEventListener('change', () => {
    const options = new Map([...clubs.options].map((option) => [option.value, option]))
    for (const club of clubsFor(country.value)) {
      const option = options.get(club)
      if (option) clubs.append(option)
    }
  })
}
