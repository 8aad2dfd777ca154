import type { SignUp, WaitlistStore } from '../store/index.js'
import { CSV_HEADER, csvLine } from './csv.js'

/**
 * Rows a page, each page a bulk read (on SQLite, on the server's reader thread). At a million sign-ups a
 * page of rows not in SQLite's cache takes about 0.15 ms a row (each row looks up its mails, events
 * and suppression): 100 rows keep a page's wait short.
 */
export const EXPORT_PAGE_SIZE = 100

/** Every sign-up (or those since a moment), page by page: memory stays bounded by one page. */
export async function* signUps(store: WaitlistStore, options: { since?: string; search?: string } = {}): AsyncGenerator<SignUp> {
  for (let afterId = 0; ;) {
    const page = await store.list({ ...options, afterId, limit: EXPORT_PAGE_SIZE, bulk: true })
    if (page.length === 0) return
    yield* page
    afterId = page[page.length - 1]?.id ?? afterId
  }
}

export type ExportFormat = 'csv' | 'json'

/** The export as text chunks: CSV with a header line, or one JSON array. */
export async function* exportChunks(rows: AsyncIterable<SignUp>, format: ExportFormat): AsyncGenerator<string> {
  if (format === 'csv') {
    yield CSV_HEADER
    for await (const row of rows) yield csvLine(row)
    return
  }
  let first = true
  yield '['
  for await (const row of rows) {
    yield `${first ? '\n' : ',\n'}${JSON.stringify(row)}`
    first = false
  }
  yield first ? ']\n' : '\n]\n'
}
