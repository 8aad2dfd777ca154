// What both stores' webhooks share.
import { randomBytes } from 'node:crypto'

/** A Standard Webhooks message id: the same for every attempt of one event. */
export const newMessageId = () => `msg_${randomBytes(16).toString('hex')}`
