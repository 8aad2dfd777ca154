// The breeds' picture's rows and columns (web/admin/views/breeds/grid.tsx): which breeds and countries
// it shows, and the note that names only the side it cuts, in words that count right.
import { describe, expect, it } from 'vitest'
import type { BreedMeter } from '../../contract/breed-meters'
import { adminContentFor } from '../support/admin-words'
import { GRID_BREEDS, GRID_COUNTRIES, gridOf } from '../../web/admin/views/breeds/grid'

const meter = (id: string, profiles: number, countries: string[], ownTarget = false): BreedMeter => ({
  id,
  name: id,
  target: { studs: 20, dams: 20 },
  ownTarget,
  all: { studs: profiles, dams: profiles, seekers: 0, profiles, ready: false },
  countries: countries.map((country) => ({ country, studs: 1, dams: 1, seekers: 0, profiles: 1, ready: false })) as BreedMeter['countries'],
})

describe("the breeds' picture", () => {
  it('shows the breeds with a target of their own first, then the most named', () => {
    const { breeds } = gridOf([meter('a', 5, ['DE']), meter('b', 9, ['DE']), meter('c', 1, ['DE'], true)])
    expect(breeds.map((b) => b.id)).toEqual(['c', 'b', 'a'])
  })

  it('names only the side it cuts: 25 breeds in 3 countries are "the 20 breeds", no count of countries', () => {
    const many = Array.from({ length: GRID_BREEDS + 5 }, (_, i) => meter(`breed-${i}`, i, ['DE', 'FR', 'IT']))
    const { breeds, countries, cut } = gridOf(many)
    expect([breeds.length, countries.length]).toEqual([GRID_BREEDS, 3])
    expect(cut).toEqual({ breeds: GRID_BREEDS, countries: null })
    const grid = adminContentFor('en').breeds.grid
    expect(grid.more(cut)).toBe(grid.more({ breeds: GRID_BREEDS, countries: null }))
    expect(grid.more(cut)).not.toContain(String(GRID_COUNTRIES))
    expect(grid.more(cut)).not.toContain('3')
    // One breed in 15 countries: the countries cut, the one breed not counted as "1 breeds".
    const wide = gridOf([
      meter(
        'pug',
        3,
        Array.from({ length: GRID_COUNTRIES + 3 }, (_, i) => `C${i}`),
      ),
    ])
    expect(wide.cut).toEqual({ breeds: null, countries: GRID_COUNTRIES })
    expect(adminContentFor('pl').breeds.grid.more(wide.cut)).toContain(`(${GRID_COUNTRIES})`)
    expect(adminContentFor('pl').breeds.grid.more(wide.cut)).not.toContain('(1)')
  })
})
