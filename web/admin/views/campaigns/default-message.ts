// The English version's starting text in the composer: recipients' words, not the operator's, so
// English whatever language the operator reads (the other languages' versions start empty).
import { site } from '../../../site'

/** With the app's links: for a server with APP_STORE_URL or PLAY_STORE_URL. */
export const DEFAULT_MARKDOWN = `${site.productName} is ready for you.

[Get the app]({{store_url}})

Once it is on your phone, open your own link there and the app takes over the profile you gave us: {{app_link}}

Your page, where you can change what you told us or stop our e-mails: {{my_page_url}}
`

/** Without them (the app's placeholders would be refused). */
export const DEFAULT_MARKDOWN_WITHOUT_STORE = `${site.productName} is ready for you.

Your page, where you can change what you told us or stop our e-mails: {{my_page_url}}
`
