// A claimed mail made into the message the transport sends: its words (templates.ts), its links
// to the visitor's page (the mail's own token), and the headers that make it the same message on
// every attempt (Message-ID, Date) and let a mailbox unsubscribe in one click (RFC 8058).
import { ONE_CLICK_FIELD, ONE_CLICK_VALUE, VISITOR_PATH } from '../../contract/visitor.js'
import type { Campaign, ClaimedMail, WaitlistStore } from '../store/types.js'
import type { Locale } from '../../contract/locales.js'
import { ADMIN_PAGE_PATH, TEAM_PATHS } from '../../contract/paths.js'
import { campaignIn, renderCampaign } from './campaign.js'
import { renderTeamMail, renderWebhookDisabledMail } from './team-mail.js'
import { type MailCopy, mailCopies } from './content.js'
import { type MailLinks, type RenderedMail, renderConfirmation } from './templates.js'
import type { OutgoingMail } from './transport.js'
import { appLinkOf, storeUrlFor, type StoreUrls } from '../handoff/links.js'

export interface ComposerOptions {
  mailFrom: string
  product: string
  /** The public address the links start with (SITE_URL, or where the server listens). */
  siteUrl: () => string
  /**
   * Campaign mails: the campaign's message for these links (and the recipient's app link and
   * phone), for a reader of that language, its words from `copyIn` (issue 13); absent, they cannot be made.
   */
  campaign?: (
    campaignId: number,
    links: MailLinks,
    locale: Locale,
    copyIn: (locale: Locale) => MailCopy,
    app: ClaimedMail['app'],
    unconfirmedImport: boolean,
  ) => Promise<RenderedMail>
}

/** The domain of the sender's address, for the Message-ID's right part. */
export function senderDomain(mailFrom: string): string {
  return /@([^\s>]+)>?\s*$/.exec(mailFrom)?.[1]?.toLowerCase() ?? 'localhost'
}

/** The visitor's page and its one-click unsubscribe address, for one token. */
export function pageLinks(siteUrl: string, token: string): MailLinks {
  const page = `${siteUrl}${VISITOR_PATH}/${token}`
  return { page, unsubscribe: `${page}/unsubscribe` }
}

export function createComposer(options: ComposerOptions): (mail: ClaimedMail) => Promise<OutgoingMail> {
  const copyIn = mailCopies(options.product)
  const domain = senderDomain(options.mailFrom)
  return async (mail): Promise<OutgoingMail> => {
    // The recipient's language, as it is when the mail is claimed (docs/decisions/016-languages.md).
    if (mail.kind === 'webhook-disabled')
      return {
        from: options.mailFrom,
        to: mail.to,
        ...renderWebhookDisabledMail(options.product, mail.locale, mail.note ?? {}, `${options.siteUrl()}${ADMIN_PAGE_PATH}/webhooks`),
        messageId: `<${mail.messageKey}@${domain}>`,
        date: new Date(mail.createdAt),
        headers: {},
      }
    if (mail.kind === 'team-invite' || mail.kind === 'team-sign-in') {
      // An operator's link: no visitor's page, no unsubscribe (the mail is theirs to ask for).
      const path = mail.kind === 'team-invite' ? TEAM_PATHS.setup : TEAM_PATHS.signIn
      return {
        from: options.mailFrom,
        to: mail.to,
        ...renderTeamMail(mail.kind, options.product, mail.locale, `${options.siteUrl()}${path}/${mail.token}`),
        messageId: `<${mail.messageKey}@${domain}>`,
        date: new Date(mail.createdAt),
        headers: {},
      }
    }
    const links = pageLinks(options.siteUrl(), mail.token)
    let rendered: RenderedMail
    if (mail.kind === 'confirm') rendered = renderConfirmation(copyIn(mail.locale), links)
    else if (mail.campaignId !== null && options.campaign)
      rendered = await options.campaign(mail.campaignId, links, mail.locale, copyIn, mail.app, mail.unconfirmedImport)
    else throw new Error(`a ${mail.kind} mail without its campaign`)
    return {
      from: options.mailFrom,
      to: mail.to,
      ...rendered,
      messageId: `<${mail.messageKey}@${domain}>`,
      date: new Date(mail.createdAt),
      headers: {
        'List-Unsubscribe': `<${links.unsubscribe}>`,
        'List-Unsubscribe-Post': `${ONE_CLICK_FIELD}=${ONE_CLICK_VALUE}`,
      },
    }
  }
}

/**
 * Campaign mails, rendered from their campaign (read once per campaign: a campaign never changes
 * once made, so a 100,000-recipient campaign costs one read), each with its recipient's app link
 * and the store for their phone (docs/decisions/022-into-the-app.md).
 */
export function campaignRenderer(store: WaitlistStore, stores: StoreUrls, siteUrl: () => string): NonNullable<ComposerOptions['campaign']> {
  const cache = new Map<number, Campaign>()
  return async (campaignId, links, locale, copyIn, app, unconfirmedImport) => {
    let campaign = cache.get(campaignId)
    if (!campaign) {
      campaign = await store.campaigns.get(campaignId)
      if (!campaign) throw new Error(`campaign ${campaignId} is gone`)
      cache.set(campaignId, campaign)
    }
    // The recipient's language if the campaign was written in it, else English, the whole mail.
    const chosen = campaignIn(campaign, locale)
    // A mail to no sign-up has no app link: it cannot be a campaign's (the outbox makes one with each).
    if (app === null) throw new Error(`campaign ${campaignId}'s mail without its recipient's app link`)
    const appLink = appLinkOf(siteUrl(), app.code)
    return renderCampaign(
      chosen.words,
      { ...links, appStore: stores.appStoreUrl ?? siteUrl(), appLink, storeUrl: storeUrlFor(stores, app.platform, appLink, app.code) },
      copyIn(chosen.locale),
      unconfirmedImport,
    )
  }
}
