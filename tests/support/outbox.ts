// Waiting for the mail worker: a test that sends mail reads the SMTP server once the outbox is idle.
import type { WaitlistStore } from '../../server/store/types'

/** Resolves with the outbox's counts once nothing is queued or under way (about 10 s at most). */
export async function outboxSettled(store: WaitlistStore) {
  for (let i = 0; i < 500; i++) {
    const counts = await store.outbox.counts()
    if (counts.queued === 0 && counts.sending === 0) return counts
    await new Promise((resolve) => setTimeout(resolve, 20))
  }
  throw new Error('the outbox did not settle')
}
