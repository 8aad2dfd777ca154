// The command line's partners (docs/partners.md): list them with their counts, add one (its key
// printed), give one a new key (the old one refused at once), disable or enable one. The same
// checks as the admin API; changes are in the audit log as the command line's.
import { embedPath, EMBED_SCRIPT_PATH } from '../../contract/partners.js'
import { DEFAULT_LOCALE } from '../../contract/locales.js'
import { HttpError } from '../http/errors.js'
import { checkedPartner, newPartnerFields, newPartnerKey, partnerOf } from '../partners/fields.js'
import type { WaitlistStore } from '../store/types.js'
import { cliAudit, UsageError } from './cli-common.js'

export interface PartnerOptions {
  origin?: string[] | undefined
  'thanks-url'?: string | undefined
  breed?: string[] | undefined
  country?: string[] | undefined
}

const idOf = (value: string | undefined, usage: string) => {
  const id = Number(value)
  if (!Number.isInteger(id) || id < 1) throw new UsageError(`${usage}: which partner? (its number, from "partners list")`)
  return id
}

/** One value of an option the segment options also give as lists (--breed, --country). */
function one(values: string[] | undefined, flag: string): string | undefined {
  if ((values?.length ?? 0) > 1) throw new UsageError(`--${flag}: one for a partner`)
  return values?.[0]
}

/** A refusal of the API's checks, in the command line's words (--origin for origins/0). */
const asUsage = (error: unknown) =>
  error instanceof HttpError
    ? new UsageError(
        error.message
          .replace(/^origins(\/\d+)?:/, '--origin:')
          .replace(/^thanksUrl:/, '--thanks-url:')
          .replace(/^(breed|country):/, '--$1:'),
      )
    : error

export async function runPartners(
  store: WaitlistStore,
  siteUrl: string,
  [command, ...rest]: string[],
  options: PartnerOptions,
  out: (text: string) => void,
): Promise<number> {
  switch (command) {
    case 'list': {
      const partners = (await store.partners.list()).map((row) => partnerOf(row, DEFAULT_LOCALE))
      if (partners.length === 0) out('no partner yet: partners add NAME --origin https://club.example\n')
      for (const p of partners)
        out(
          `${String(p.id).padStart(4)}  ${p.disabled ? 'disabled' : 'enabled '}  ${p.name}  key ${p.key}  ${p.origins.join(',')}  sign-ups ${p.signups.toLocaleString('en')}, confirmed ${p.confirmed.toLocaleString('en')}${p.breed ? `  breed ${p.breed}` : ''}${p.country ? `  country ${p.country}` : ''}\n`,
        )
      return 0
    }
    case 'add': {
      const name = rest.join(' ')
      if (!name) throw new UsageError('partners add: which name? e.g. partners add "Labrador Club" --origin https://club.example')
      let fields
      try {
        fields = newPartnerFields({
          name,
          origins: options.origin ?? [],
          thanksUrl: options['thanks-url'] ?? null,
          breed: one(options.breed, 'breed') ?? null,
          country: one(options.country, 'country') ?? null,
        })
      } catch (error) {
        throw asUsage(error)
      }
      const key = newPartnerKey()
      const id = await store.partners.add(
        { ...fields, key },
        cliAudit('partner added', null, { name: fields.name, origins: fields.origins }),
      )
      out(
        `partner ${id} added, key ${key}. On its site:\n<script src="${siteUrl}${EMBED_SCRIPT_PATH}" data-partner="${key}" async></script>\nor, without scripts, an iframe of ${siteUrl}${embedPath(key)} (docs/partners.md)\n`,
      )
      return 0
    }
    case 'rotate': {
      const id = idOf(rest[0], 'partners rotate')
      const key = newPartnerKey()
      if (!(await store.partners.rotate(id, key, cliAudit('partner key rotated', `partner ${id}`))))
        throw new UsageError(`partners rotate: no partner ${id}`)
      out(`partner ${id} has a new key, ${key}: the old one is refused from now on; its site needs the new one\n`)
      return 0
    }
    case 'disable':
    case 'enable': {
      const id = idOf(rest[0], `partners ${command}`)
      const change = checkedPartner({ disabled: command === 'disable' })
      if (!(await store.partners.change(id, change, cliAudit('partner changed', `partner ${id}`, { disabled: change.disabled }))))
        throw new UsageError(`partners ${command}: no partner ${id}`)
      out(`partner ${id} ${command}d${command === 'disable' ? ': its key and forms answer 404 until it is enabled' : ''}\n`)
      return 0
    }
    default:
      throw new UsageError(`partners: expected list, add, rotate, disable or enable, got "${command ?? ''}"`)
  }
}
