// What both stores' demand maps share: how many they list, and a named breed as the map shows it.
import type { Segments } from '../../../contract/campaigns.js'
import { breedName } from '../../breeds/catalogue.js'

/** How many inviters the demand map lists. */
export const TOP_INVITERS = 10
/** How many breeds the demand map lists. */
export const TOP_BREEDS = 20

/** A breed as the demand map's query counts it: the catalogue's id, or none and the first spelling of a name it missed. */
export type NamedBreed = Omit<Segments['topBreeds'][number], 'breed' | 'id'> & { id: string | null; name: string }

/** The catalogue's (English) name for a breed it knows; the name as typed for one it does not. */
export const namedBreed = ({ id, name, ...counts }: NamedBreed): Segments['topBreeds'][number] => ({
  id,
  breed: id === null ? name : breedName(id),
  ...counts,
})
