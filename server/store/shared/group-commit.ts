// Group commit: the calls that arrive in one turn of the event loop run as one batch (one
// transaction, one fsync, one statement), and each caller is answered with its own outcome only
// after the batch has run. Both stores use it for sign-ups, PostgreSQL for its counters too.

export type Outcome<T> = { ok: true; value: T } | { ok: false; error: unknown }

export interface GroupCommit<In, Out> {
  /** Queues the item; resolves with its result once its batch has run (rejects with its error). */
  submit(item: In): Promise<Out>
  /** Runs what is queued now and waits for every batch under way (a closing store calls it). */
  drain(): Promise<void>
}

/**
 * `run` answers one outcome per item, in order: an item that fails alone (a row the table
 * refuses) fails only its caller. When `run` throws, every item of the batch fails with that error.
 */
export function createGroupCommit<In, Out>(
  run: (items: readonly In[]) => readonly Outcome<Out>[] | Promise<readonly Outcome<Out>[]>,
): GroupCommit<In, Out> {
  type Pending = { item: In; resolve: (value: Out) => void; reject: (error: unknown) => void }
  let queue: Pending[] = []
  let scheduled = false
  const underWay = new Set<Promise<void>>()

  async function runBatch(batch: Pending[]): Promise<void> {
    try {
      const outcomes = await run(batch.map((pending) => pending.item))
      batch.forEach((pending, i) => {
        const outcome = outcomes[i]
        if (outcome?.ok) pending.resolve(outcome.value)
        else pending.reject(outcome ? outcome.error : new Error('group commit: no outcome for an item'))
      })
    } catch (error) {
      for (const pending of batch) pending.reject(error)
    }
  }

  function runQueued(): void {
    scheduled = false
    const batch = queue
    queue = []
    if (batch.length === 0) return
    const done: Promise<void> = runBatch(batch).finally(() => underWay.delete(done))
    underWay.add(done)
  }

  return {
    submit: (item) =>
      new Promise<Out>((resolve, reject) => {
        queue.push({ item, resolve, reject })
        if (scheduled) return
        scheduled = true
        setImmediate(runQueued)
      }),
    drain: async () => {
      runQueued()
      await Promise.all(underWay)
    },
  }
}
