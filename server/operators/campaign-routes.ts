// The demand map and campaigns for the launch team (docs/decisions/013-campaigns.md), under
// /admin/api and its token. A campaign is made as a draft (counted and rendered) or sent at once;
// sending queues one outbox row per recipient in one transaction, never twice per recipient.
import type { FastifyInstance } from 'fastify'
import { breedName, isBreedId } from '../breeds/catalogue.js'
import { randomUUID } from 'node:crypto'
import type { CampaignDraft, CampaignProgress, CampaignRequest, CampaignWritten, Segment } from '../../contract/campaigns.js'
import { MAX_MARKDOWN_LENGTH, MAX_SUBJECT_LENGTH } from '../../contract/campaigns.js'
import { DEFAULT_LOCALE, LOCALES, type Locale } from '../../contract/locales.js'
import {
  MOMENT_PATTERN,
  SEGMENT,
  SEGMENT_FIELDS,
  type SegmentField,
  segmentProblems,
  TEXT_PATTERN,
  tidySegment,
} from '../../contract/segment.js'
import { HttpError } from '../http/errors.js'
import { auditOf, callerOf, checkPermission, localeOf } from '../team/auth.js'
import { can } from '../../contract/team.js'
import { campaignIn, campaignWords, renderCampaign } from '../mail/campaign.js'
import { senderDomain } from '../mail/compose.js'
import { mailCopies } from '../mail/content.js'
import { previewLinks } from '../mail/public-settings.js'
import type { StoreUrls } from '../handoff/links.js'
import { isValidEmail } from '../waitlist/check-row.js'
import type { Campaign, DraftChange } from '../store/types.js'

/** A field's JSON schema, made from its definition: the limits are the definition's. */
function fieldSchema(field: SegmentField) {
  switch (field.kind) {
    case 'choice':
    case 'codes':
      return { type: 'array', maxItems: field.of.length, uniqueItems: true, items: { type: 'string', enum: field.of } }
    case 'texts':
      return {
        type: 'array',
        maxItems: field.maxItems,
        items: { type: 'string', minLength: 1, maxLength: field.maxLength, pattern: TEXT_PATTERN },
      }
    case 'switch':
    case 'tristate':
      return { type: 'boolean' }
    case 'moment':
      return { type: 'string', pattern: MOMENT_PATTERN }
    case 'number':
      return { type: 'integer', minimum: field.min, maximum: field.max }
  }
}

/** A segment as the API takes it: every field of contract/segment.ts, and nothing else. */
export const segmentSchema = {
  type: 'object',
  additionalProperties: false,
  properties: Object.fromEntries(SEGMENT_FIELDS.map((name) => [name, fieldSchema(SEGMENT[name])])),
} as const

/** A campaign's subject or message: a string (English), or an object of the languages it is written in. */
const localizedSchema = (maxLength: number) =>
  ({
    anyOf: [
      { type: 'string', minLength: 1, maxLength },
      {
        type: 'object',
        additionalProperties: false,
        properties: Object.fromEntries(LOCALES.map((locale) => [locale, { type: 'string', minLength: 1, maxLength }])),
      },
    ],
  }) as const

const idParams = { type: 'object', required: ['id'], properties: { id: { type: 'integer', minimum: 1 } } } as const

export interface CampaignRoutesOptions {
  /** APP_STORE_URL and PLAY_STORE_URL. */
  stores: StoreUrls
  mailFrom: string
}

export async function campaignRoutes(app: FastifyInstance, { stores, mailFrom }: CampaignRoutesOptions) {
  const copyIn = mailCopies(app.productName)
  /** The links a preview or a test shows, as the command line's dry run shows them (public-settings.ts). */
  const sampleLinks = () => previewLinks({ siteUrl: app.siteUrl(), ...stores })
  const progressOf = async (id: number): Promise<CampaignProgress> => {
    const progress = await app.store.campaigns.progress(id)
    if (!progress) throw new HttpError(404, 'not_found', `No campaign ${id}`)
    return progress
  }

  app.get(
    '/segments',
    {
      config: { permission: 'figures:read' },
      schema: { querystring: { type: 'object', additionalProperties: false, properties: { breed: { type: 'string', maxLength: 80 } } } },
    },
    async (request) => {
      const { breed } = request.query as { breed?: string }
      if (breed !== undefined && !isBreedId(breed))
        throw new HttpError(400, 'invalid_breed', `breed: not a breed of the catalogue, got ${JSON.stringify(breed)}`)
      const counted = await app.store.segments(breed ?? null)
      const caller = callerOf(request)
      // A breed the catalogue knows in the caller's language; a name it missed as it was typed.
      const locale = localeOf(caller)
      const segments = {
        ...counted,
        topBreeds: counted.topBreeds.map((b) => (b.id === null ? b : { ...b, breed: breedName(b.id, locale) })),
      }
      // The figures without addresses for a role that may not read them (a viewer).
      if (can(caller.role, 'signups:read')) return segments
      return { ...segments, topInviters: segments.topInviters.map((inviter) => ({ ...inviter, email: '' })) }
    },
  )

  app.get('/campaigns', { config: { permission: 'figures:read' } }, async () => app.store.campaigns.list())
  // What the composer needs to know of the server: whether {{app_store_url}}, and {{app_link}} and
  // {{store_url}} (either store), have somewhere to go.
  app.get('/campaigns/settings', { config: { permission: 'figures:read' } }, async () => ({
    appStoreUrl: stores.appStoreUrl !== null,
    playStoreUrl: stores.playStoreUrl !== null,
  }))

  /** The campaign a request describes, checked: its words by language and its segment; a 400 names what is wrong. */
  const campaignOf = (body: Omit<CampaignRequest, 'send'>) => {
    const checked = campaignWords(body, stores)
    const problems = checked.ok ? [] : checked.problems
    problems.push(...segmentProblems(body.segment, (field) => `segment/${field}`))
    if (!checked.ok || problems.length > 0) throw new HttpError(400, 'invalid_campaign', problems.join('; '))
    const { en, ...translations } = checked.words
    // Saved tidy: opened in the composer and saved again, it reads back the same.
    const segment = tidySegment(body.segment)
    return { words: checked.words, segment, stored: { ...en, translations, segment } satisfies Omit<Campaign, 'id'> }
  }
  /** A draft as its recipients will see it: counted now, each language it is written in rendered (with sample links). */
  const draftOf = async (id: number, words: Partial<Record<Locale, { subject: string; markdown: string }>>, segment: Segment) => {
    const recipients = await app.store.campaigns.count(segment)
    const previews: CampaignDraft['previews'] = {}
    for (const [locale, written] of Object.entries(words) as [Locale, { subject: string; markdown: string }][]) {
      const rendered = renderCampaign(written, sampleLinks(), copyIn(locale))
      previews[locale] = { subject: rendered.subject, html: rendered.html, text: rendered.text }
    }
    return { id, recipients, html: previews.en?.html ?? '', text: previews.en?.text ?? '', previews } satisfies CampaignDraft
  }
  /** A change to a draft that did not happen: there is none, or it went out already. */
  const notADraft = (id: number, change: DraftChange | undefined) => {
    if (change === undefined) throw new HttpError(404, 'not_found', `No campaign ${id}`)
    if (change === 'sent') throw new HttpError(409, 'not_a_draft', `Campaign ${id} is sent: it can no longer be changed or deleted`)
  }
  const campaignBody = {
    type: 'object',
    additionalProperties: false,
    required: ['subject', 'markdown', 'segment'],
    properties: { subject: localizedSchema(MAX_SUBJECT_LENGTH), markdown: localizedSchema(MAX_MARKDOWN_LENGTH), segment: segmentSchema },
  } as const

  app.post(
    '/campaigns',
    {
      config: { permission: 'campaigns:write' },
      schema: {
        body: {
          ...campaignBody,
          required: [...campaignBody.required, 'send'],
          properties: { ...campaignBody.properties, send: { type: 'boolean' } },
        },
      },
    },
    async (request, reply) => {
      const body = request.body as CampaignRequest
      // Sending at once is sending: it needs that permission, and a recent sign-in.
      if (body.send) checkPermission(request, 'campaigns:send', true)
      const { words, segment, stored } = campaignOf(body)
      const id = await app.store.campaigns.create(stored)
      request.log.info({ campaign: id, send: body.send }, 'admin: campaign made')
      if (body.send) {
        const sent = await app.store.campaigns.send(id, auditOf(request, 'campaign sent', `campaign ${id}`))
        app.mailer.nudge()
        return reply.code(201).send({ id, recipients: sent?.recipients ?? 0 })
      }
      return reply.code(201).send(await draftOf(id, words, segment))
    },
  )

  // A draft opened again: as written, counted and rendered now.
  app.get('/campaigns/:id/draft', { config: { permission: 'campaigns:write' }, schema: { params: idParams } }, async (request) => {
    const { id } = request.params as { id: number }
    const [campaign, progress] = await Promise.all([app.store.campaigns.get(id), app.store.campaigns.progress(id)])
    if (!campaign || !progress) throw new HttpError(404, 'not_found', `No campaign ${id}`)
    if (progress.status !== 'draft') notADraft(id, 'sent')
    const words = { en: { subject: campaign.subject, markdown: campaign.markdown }, ...campaign.translations }
    const field = (name: 'subject' | 'markdown') =>
      Object.fromEntries(Object.entries(words).map(([locale, written]) => [locale, written[name]])) as CampaignWritten['subject']
    return {
      ...(await draftOf(id, words, campaign.segment)),
      subject: field('subject'),
      markdown: field('markdown'),
      segment: campaign.segment,
    }
  })

  // A draft changed: the same checks as a new one, and the same answer; never a campaign sent.
  app.put(
    '/campaigns/:id',
    { config: { permission: 'campaigns:write' }, schema: { params: idParams, body: campaignBody } },
    async (request) => {
      const { id } = request.params as { id: number }
      const body = request.body as Omit<CampaignRequest, 'send'>
      const { words, segment, stored } = campaignOf(body)
      const change = await app.store.campaigns.update(id, stored)
      if (change !== 'draft') notADraft(id, change)
      request.log.info({ campaign: id }, 'admin: draft changed')
      return draftOf(id, words, segment)
    },
  )

  app.delete('/campaigns/:id', { config: { permission: 'campaigns:write' }, schema: { params: idParams } }, async (request, reply) => {
    const { id } = request.params as { id: number }
    const change = await app.store.campaigns.remove(id, auditOf(request, 'campaign draft deleted', `campaign ${id}`))
    if (change !== 'draft') notADraft(id, change)
    request.log.info({ campaign: id }, 'admin: draft deleted')
    return reply.code(204).send()
  })

  app.get('/campaigns/:id', { config: { permission: 'figures:read' }, schema: { params: idParams } }, async (request) =>
    progressOf((request.params as { id: number }).id),
  )

  app.post(
    '/campaigns/:id/send',
    { config: { permission: 'campaigns:send', recent: true }, schema: { params: idParams } },
    async (request) => {
      const { id } = request.params as { id: number }
      const sent = await app.store.campaigns.send(id, auditOf(request, 'campaign sent', `campaign ${id}`))
      if (!sent) throw new HttpError(404, 'not_found', `No campaign ${id}`)
      request.log.info({ campaign: id, queued: sent.queued }, 'admin: campaign sent')
      app.mailer.nudge()
      return { id, recipients: sent.recipients }
    },
  )

  for (const [action, paused] of [
    ['pause', true],
    ['resume', false],
  ] as const) {
    app.post(`/campaigns/:id/${action}`, { config: { permission: 'campaigns:send' }, schema: { params: idParams } }, async (request) => {
      const { id } = request.params as { id: number }
      const audit = auditOf(request, paused ? 'campaign paused' : 'campaign resumed', `campaign ${id}`)
      if (!(await app.store.campaigns.setPaused(id, paused, audit))) throw new HttpError(404, 'not_found', `No campaign ${id}`)
      if (!paused) app.mailer.nudge()
      return progressOf(id)
    })
  }

  // A test to one address, now and outside the outbox: what the recipients will get, with sample
  // links in place of each one's own.
  app.post(
    '/campaigns/:id/test',
    {
      config: { permission: 'campaigns:write' },
      schema: {
        params: idParams,
        body: {
          type: 'object',
          additionalProperties: false,
          required: ['email'],
          // The language to test in (default English; one the campaign was not written in gets English, as a recipient would).
          properties: { email: { type: 'string', maxLength: 254 }, locale: { type: 'string', enum: LOCALES } },
        },
      },
    },
    async (request) => {
      const { id } = request.params as { id: number }
      const { email, locale = DEFAULT_LOCALE } = request.body as { email: string; locale?: Locale }
      if (!isValidEmail(email)) throw new HttpError(400, 'invalid_email', 'email: not an address a mail can go to')
      const campaign = await app.store.campaigns.get(id)
      if (!campaign) throw new HttpError(404, 'not_found', `No campaign ${id}`)
      const links = sampleLinks()
      const chosen = campaignIn(campaign, locale)
      const rendered = renderCampaign(chosen.words, links, copyIn(chosen.locale))
      try {
        await app.transport.send({
          from: mailFrom,
          to: email,
          ...rendered,
          subject: `[Test] ${rendered.subject}`,
          messageId: `<${randomUUID()}@${senderDomain(mailFrom)}>`,
          date: new Date(),
          headers: {},
        })
      } catch (error) {
        request.log.warn({ campaign: id, code: (error as { responseCode?: number }).responseCode }, 'admin: test mail not sent')
        throw new HttpError(502, 'test_not_sent', 'The mail server did not take the test mail', { hint: 'Check SMTP_URL and try again.' })
      }
      request.log.info({ campaign: id }, 'admin: test mail sent')
      // The address a test went to is left out: it may be anyone's.
      await app.store.team.audit(auditOf(request, 'campaign test sent', `campaign ${id}`, { locale: chosen.locale }))
      return { sent: true }
    },
  )
}
