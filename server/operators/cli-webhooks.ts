// The command line's webhooks (docs/decisions/018-webhooks.md): list the endpoints, add one (its
// secret printed once), queue a test event (the running server delivers it), and read an
// endpoint's delivery log. Changes are in the audit log as the command line's.
import { DEFAULT_LOCALE } from '../../contract/locales.js'
import { disabledReasonWords } from '../../contract/webhooks.js'
import { adminTranslator } from '../../locales/index.js'
import type { Config } from '../config.js'
import { HttpError } from '../http/errors.js'
import type { WaitlistStore } from '../store/types.js'
import { checkedFields, endpointOf, newWebhookSecret } from '../webhooks/routes.js'
import { cliAudit, UsageError } from './cli-common.js'

const idOf = (value: string | undefined, usage: string) => {
  const id = Number(value)
  if (!Number.isInteger(id) || id < 1) throw new UsageError(`${usage}: which endpoint? (its number, from "webhooks list")`)
  return id
}

export async function runWebhooks(
  store: WaitlistStore,
  config: Pick<Config, 'WEBHOOK_ALLOW_PRIVATE'>,
  [command, ...rest]: string[],
  options: {
    event?: string[] | undefined
    description?: string | undefined
    'include-email'?: boolean | undefined
    limit?: string | undefined
  },
  out: (text: string) => void,
): Promise<number> {
  switch (command) {
    case 'list': {
      const endpoints = (await store.webhooks.endpoints()).map(endpointOf)
      if (endpoints.length === 0) out('no webhook endpoint yet: webhooks add URL --event signup.created\n')
      for (const e of endpoints)
        out(
          `${String(e.id).padStart(4)}  ${e.enabled ? 'enabled ' : 'disabled'}  ${e.url}  ${e.events.join(',')}${e.includeEmail ? '  (with addresses)' : ''}${e.disabledReason ? `  (${disabledReasonWords(adminTranslator(DEFAULT_LOCALE), e.disabledReason)})` : ''}\n`,
        )
      return 0
    }
    case 'add': {
      const [url] = rest
      if (!url) throw new UsageError('webhooks add: which URL? e.g. webhooks add https://hooks.example.com/kennect --event signup.created')
      let fields
      try {
        fields = await checkedFields(
          { url, events: options.event ?? [], description: options.description ?? '', includeEmail: options['include-email'] === true },
          config.WEBHOOK_ALLOW_PRIVATE,
        )
      } catch (error) {
        if (error instanceof HttpError) throw new UsageError(error.message.replace(/^events:/, '--event:').replace(/^url:/, 'URL:'))
        throw error
      }
      const secret = newWebhookSecret()
      const endpoint = {
        url: fields.url ?? url,
        events: fields.events ?? [],
        description: fields.description ?? '',
        enabled: true,
        include_email: fields.include_email ?? false,
      }
      const id = await store.webhooks.addEndpoint(
        { ...endpoint, secret },
        cliAudit('webhook created', null, { url: endpoint.url, events: endpoint.events, includeEmail: endpoint.include_email }),
      )
      out(`webhook ${id} added. Its signing secret, shown this once:\n${secret}\n`)
      return 0
    }
    case 'test': {
      const id = idOf(rest[0], 'webhooks test')
      const sent = await store.webhooks.sendTest(
        id,
        { id: 0, role: 'breeder', country: 'DE', breeds: ['Golden Retriever'], locale: 'de', source: 'test', partner: null },
        cliAudit('webhook test sent', `webhook ${id}`),
      )
      if (!sent) throw new UsageError(`webhooks test: no webhook ${id}`)
      out(`a test event is queued for webhook ${id}: the running server delivers it (see "webhooks log ${id}")\n`)
      return 0
    }
    case 'log': {
      const id = idOf(rest[0], 'webhooks log')
      if (!(await store.webhooks.endpoint(id))) throw new UsageError(`webhooks log: no webhook ${id}`)
      const limit = options.limit === undefined ? 50 : Number(options.limit)
      if (!Number.isInteger(limit) || limit < 1 || limit > 1000) throw new UsageError(`--limit: expected 1 to 1000, got "${options.limit}"`)
      const attempts = await store.webhooks.attempts(id, { limit })
      if (attempts.length === 0) out('no delivery yet\n')
      for (const a of attempts)
        out(
          `${a.at}  ${a.event_type.padEnd(22)}  attempt ${a.attempt}  ${a.status === null ? '---' : a.status}  ${String(a.duration_ms).padStart(5)} ms  ${a.state.padEnd(9)}  ${a.message_id}${a.error ? `  ${a.error}` : ''}\n`,
        )
      return 0
    }
    default:
      throw new UsageError(
        `webhooks: expected "webhooks list", "webhooks add URL --event E…", "webhooks test ID" or "webhooks log ID", got "webhooks ${command ?? ''}"`,
      )
  }
}
