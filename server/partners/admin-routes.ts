// The admin API's partners (docs/partners.md): viewers read them with their counts; owners and
// editors make them, change them, disable them and give them new keys, each change audit-logged.
// A 400 names the wrong field and saves nothing.
import type { FastifyInstance, FastifyRequest } from 'fastify'
import { isCountryCode } from '../../contract/countries.js'
import {
  type Partner,
  type PartnerChange,
  type PartnerDetail,
  PARTNER_NAME_MAX,
  PARTNER_ORIGIN_MAX,
  PARTNER_ORIGINS_MAX,
  PARTNER_URL_MAX,
  type PartnerSnippets,
} from '../../contract/partners.js'
import { breedName } from '../breeds/catalogue.js'
import { HttpError } from '../http/errors.js'
import { BREAKDOWN_LIMIT } from '../store/partners/shared.js'
import { auditOf, callerOf, localeOf } from '../team/auth.js'
import { checkedPartner, newPartnerFields, newPartnerKey, partnerOf } from './fields.js'
import { partnerSnippets } from './snippets.js'
import type { VisitorPages } from '../visitor/pages.js'
import { LOCALES, readLocale } from '../../contract/locales.js'

const idParams = { type: 'object', required: ['id'], properties: { id: { type: 'integer', minimum: 1 } } } as const
/** The shape only: lengths and kinds. What a value means is checked by checkedPartner, naming the field. */
const nullableText = (maxLength: number) => ({ anyOf: [{ type: 'string', maxLength }, { type: 'null' }] })
const partnerFields = {
  name: { type: 'string', maxLength: PARTNER_NAME_MAX * 4 },
  origins: { type: 'array', maxItems: PARTNER_ORIGINS_MAX, items: { type: 'string', maxLength: PARTNER_ORIGIN_MAX * 2 } },
  thanksUrl: nullableText(PARTNER_URL_MAX),
  breed: nullableText(200),
  country: nullableText(10),
} as const
/** A new partner is enabled; `disabled` is a change's. */
const newPartnerBody = { type: 'object', additionalProperties: false, required: ['name', 'origins'], properties: partnerFields } as const
const changeBody = {
  type: 'object',
  additionalProperties: false,
  minProperties: 1,
  properties: { ...partnerFields, disabled: { type: 'boolean' } },
} as const
const read = { permission: 'figures:read' } as const
const manage = { permission: 'partners:manage' } as const

export async function partnerAdminRoutes(app: FastifyInstance, { pages }: { pages: VisitorPages | undefined }) {
  const found = async (id: number) => {
    const partner = await app.store.partners.get(id)
    if (!partner) throw new HttpError(404, 'not_found', `No partner ${id}`)
    return partner
  }

  // Each answer names the partner's breed in the caller's language.
  const named = async (request: FastifyRequest, id: number) => partnerOf(await found(id), localeOf(callerOf(request)))

  app.get('/partners', { config: read }, async (request): Promise<Partner[]> => {
    const locale = localeOf(callerOf(request))
    return (await app.store.partners.list()).map((row) => partnerOf(row, locale))
  })

  app.post('/partners', { config: manage, schema: { body: newPartnerBody } }, async (request, reply) => {
    const fields = newPartnerFields(request.body as PartnerChange)
    const key = newPartnerKey()
    const id = await app.store.partners.add(
      { ...fields, key },
      auditOf(request, 'partner added', null, { name: fields.name, origins: fields.origins }),
    )
    return reply.code(201).send(await named(request, id))
  })

  app.get('/partners/:id', { config: read, schema: { params: idParams } }, async (request): Promise<PartnerDetail> => {
    const { id } = request.params as { id: number }
    const locale = localeOf(callerOf(request))
    const partner = partnerOf(await found(id), locale)
    const { countries, breeds } = await app.store.partners.breakdown(id, BREAKDOWN_LIMIT)
    return {
      ...partner,
      countries: countries.map((row) => ({ ...row, country: row.country !== null && isCountryCode(row.country) ? row.country : null })),
      breeds: breeds.map((row) => ({
        id: row.breed,
        name: row.breed ? breedName(row.breed, locale) : row.name,
        signups: row.signups,
        confirmed: row.confirmed,
      })),
    }
  })

  app.get(
    '/partners/:id/snippets',
    {
      config: read,
      schema: {
        params: idParams,
        querystring: { type: 'object', additionalProperties: false, properties: { lang: { type: 'string', enum: [...LOCALES] } } },
      },
    },
    async (request): Promise<PartnerSnippets> => {
      const { id } = request.params as { id: number }
      const partner = await found(id)
      // The form's words come from the build (its render module); a page-only build has none.
      if (!pages) throw new HttpError(503, 'not_built', 'The snippets need the built pages: run npm run build')
      const locale = readLocale((request.query as { lang?: string }).lang)
      return partnerSnippets(app.siteUrl(), partner, locale, pages.embed.words(locale))
    },
  )

  app.patch('/partners/:id', { config: manage, schema: { params: idParams, body: changeBody } }, async (request) => {
    const { id } = request.params as { id: number }
    const change = checkedPartner(request.body as PartnerChange, await found(id))
    // The log says what changed, in the API's words.
    const { thanks_url, ...rest } = change
    const detail = { ...rest, ...(thanks_url === undefined ? {} : { thanksUrl: thanks_url }) }
    await app.store.partners.change(id, change, auditOf(request, 'partner changed', `partner ${id}`, detail))
    return named(request, id)
  })

  app.post('/partners/:id/key', { config: manage, schema: { params: idParams } }, async (request) => {
    const { id } = request.params as { id: number }
    if (!(await app.store.partners.rotate(id, newPartnerKey(), auditOf(request, 'partner key rotated', `partner ${id}`))))
      throw new HttpError(404, 'not_found', `No partner ${id}`)
    return named(request, id)
  })
}
