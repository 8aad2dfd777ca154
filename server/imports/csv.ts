// A CSV file read as a stream (csv-parse): the delimiter (`,` or `;`) told from the header line, a
// UTF-8 byte-order mark dropped, quoted fields across lines, CRLF or LF. Each record comes with the
// file's own line number of its first line. csv-parse counts a CRLF inside quotes as two lines, so
// the lines are counted here, from the bytes: each record's start is where the one before ended
// (csv-parse's byte count), past any empty lines, and its line the breaks before it, plus one.
import { CsvError, type InfoRecord, type Options, parse } from 'csv-parse'
import { Readable, Transform } from 'node:stream'
import { pipeline } from 'node:stream/promises'
import { IMPORT_MAX_RECORD_BYTES } from '../../contract/imports.js'

export interface CsvRecord {
  /** The file's own line of the record's first line (1-based). */
  line: number
  cells: string[]
  /** How far into the file the record ends (its line break included). */
  endByte: number
}

/** The rest of the file cannot be read (a quote never closed, a record over IMPORT_MAX_RECORD_BYTES), from this line on. */
export interface CsvBroken {
  line: number
  broken: true
  endByte: number
}

/** How much of the file the parser is given at a time. */
const SLICE_BYTES = 8_192
/** The first line this much of the file is looked at for the delimiter. */
const HEAD_BYTES = 65_536
const LF = 0x0a
const CR = 0x0d

/** `;` when the header line has more semicolons than commas outside quotes (a European spreadsheet's CSV), else `,`. */
export function delimiterOf(head: string): ',' | ';' {
  const unquoted = head.replace(/"[^"]*("|$)/g, '')
  const count = (c: string) => unquoted.split(c).length - 1
  return count(';') > count(',') ? ';' : ','
}

/** The line breaks of the bytes seen so far (CRLF, LF or a lone CR each one), for the records' lines. */
class LineBreaks {
  /** Offsets of the breaks not yet passed, and each one's length (2 for CRLF). */
  private offsets: number[] = []
  private lengths: number[] = []
  private next = 0
  /** Breaks passed already. */
  private passed = 0
  private seen = 0
  /** Where the last CR was: an LF right after it belongs to it. */
  private crAt = -1

  add(chunk: Buffer): void {
    for (let i = 0; i < chunk.length; i++) {
      const byte = chunk[i]
      const at = this.seen + i
      if (byte === LF && this.crAt === at - 1) {
        // The LF of a CRLF: the CR's break, two bytes long (unless it is passed already).
        if (this.offsets.at(-1) === at - 1) this.lengths[this.lengths.length - 1] = 2
      } else if (byte === LF || byte === CR) {
        this.offsets.push(at)
        this.lengths.push(1)
        if (byte === CR) this.crAt = at
      }
    }
    this.seen += chunk.length
  }

  /** The line of a record starting at `start`: empty lines at its start skipped. */
  lineAt(start: number): number {
    let at = start
    while (this.next < this.offsets.length && (this.offsets[this.next] ?? 0) < at) this.step()
    // An empty line is a break right where the record would start.
    while (this.next < this.offsets.length && this.offsets[this.next] === at) {
      at += this.lengths[this.next] ?? 1
      this.step()
    }
    return this.passed + 1
  }

  private step() {
    this.next++
    this.passed++
    // What is passed is not needed again: the arrays stay as long as a chunk's breaks.
    if (this.next > 4096) {
      this.offsets.splice(0, this.next)
      this.lengths.splice(0, this.next)
      this.next = 0
    }
  }
}

/** The file's first bytes (at least its first line, or all of it when shorter), and the rest of it as a stream. */
async function head(source: AsyncIterable<Buffer>): Promise<{ head: Buffer; rest: AsyncIterator<Buffer> }> {
  const rest = source[Symbol.asyncIterator]()
  const chunks: Buffer[] = []
  let length = 0
  while (length < HEAD_BYTES) {
    const next = await rest.next()
    if (next.done) break
    const chunk = Buffer.isBuffer(next.value) ? next.value : Buffer.from(next.value)
    chunks.push(chunk)
    length += chunk.length
    if (chunk.includes(LF) || chunk.includes(CR)) break
  }
  return { head: Buffer.concat(chunks), rest }
}

/** The records of a CSV file, the header first, as they arrive; a part that cannot be read ends it. */
export async function* readCsv(source: AsyncIterable<Buffer>): AsyncGenerator<CsvRecord | CsvBroken> {
  const start = await head(source)
  const firstLine =
    start.head
      .toString('utf8')
      .replace(/^\uFEFF/, '')
      .split(/\r\n|\r|\n/, 1)[0] ?? ''
  const breaks = new LineBreaks()
  // Where the record before ended: the next one starts there (past any empty lines).
  let ended = 0
  const options: Options<CsvRecord, string[]> = {
    delimiter: delimiterOf(firstLine),
    bom: true,
    relax_column_count: true,
    // A quote inside a field that was not quoted is a character of it (an address with a stray quote fails as an address).
    relax_quotes: true,
    skip_empty_lines: true,
    max_record_size: IMPORT_MAX_RECORD_BYTES,
    // Each record as it is parsed, small: its cells, its line and where it ends (the parser's own
    // record of it is left behind at once, so little lives on while records wait to be read).
    on_record: (cells: string[], context: InfoRecord): CsvRecord => {
      const line = breaks.lineAt(ended)
      ended = context.bytes
      return { line, cells, endByte: ended }
    },
  }
  // csv-parse types a stream's records as its options' default (string[]); these are CsvRecords.
  const parser = parse(options as unknown as Options)
  const counted = new Transform({
    transform(chunk: Buffer, _encoding, done) {
      breaks.add(chunk)
      // In slices: the parser reads a written chunk whole, and each slice's records wait for the
      // reader, so a slice's worth lives at a time, not a 64 KiB chunk's thousand records.
      for (let at = 0; at < chunk.length; at += SLICE_BYTES) this.push(chunk.subarray(at, at + SLICE_BYTES))
      done()
    },
  })
  const bytes = Readable.from(
    (async function* () {
      if (start.head.length > 0) yield start.head
      for (;;) {
        const next = await start.rest.next()
        if (next.done) return
        yield next.value
      }
    })(),
  )
  // The records are read below as they come; the pipeline's own end (or failure) is awaited last.
  const piped = pipeline(bytes, counted, parser)
  piped.catch(() => undefined) // its failure is the iteration's, reported there
  try {
    for await (const record of parser as AsyncIterable<CsvRecord>) yield record
  } catch (error) {
    if (!(error instanceof CsvError)) throw error
    yield { line: breaks.lineAt(ended), broken: true, endByte: Number((error as CsvError & { bytes?: number }).bytes ?? ended) }
    return
  }
  await piped
}
