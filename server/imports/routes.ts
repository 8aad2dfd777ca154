// The admin API's imports (docs/import.md): a CSV uploaded (multipart: the fields, then `file`),
// stored as it arrives in a file of this process's own that no other can open (its name removed
// at once: the system frees it when the process lets go of it, even after a crash), its SHA-256
// made on the way; then read by the worker in the background. Its status, its cancel, its error
// file, and a preview of the first rows as the import will read them.
import multipart from '@fastify/multipart'
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import { createHash } from 'node:crypto'
import { type FileHandle, mkdtemp, open, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { Readable } from 'node:stream'
import {
  IMPORT_PREVIEW_BYTES,
  IMPORT_PREVIEW_ROWS,
  type ImportPreview,
  type ImportPreviewRow,
  type ImportStarted,
} from '../../contract/imports.js'
import { HttpError } from '../http/errors.js'
import { auditOf } from '../team/auth.js'
import { delimiterOf, readCsv } from './csv.js'
import { isBlank, readRecord } from './read.js'
import { IMPORT_LEASE_MS, runImport } from './run.js'
import { checkFields, errorsCsv, fileHeader } from './start.js'

/** The fields' own bytes and the multipart framing around them, beside the file: a request declaring more is refused unread. */
const FIELDS_ALLOWANCE = 16_384
/** How many imports the list shows. */
const LISTED = 50

const idParams = {
  type: 'object',
  required: ['id'],
  properties: { id: { type: 'integer', minimum: 1 } },
} as const

/** 413: the file is over IMPORT_MAX_BYTES (nothing was imported). */
const tooLarge = (maxBytes: number) =>
  new HttpError(
    413,
    'payload_too_large',
    `The file is over IMPORT_MAX_BYTES (${maxBytes.toLocaleString('en')} bytes): nothing was imported`,
  )

/** A file of our own: its name gone at once, so only this process holds it, and the system frees it when we let go. */
async function privateFile(): Promise<FileHandle> {
  const dir = await mkdtemp(join(tmpdir(), 'kennect-import-'))
  try {
    return await open(join(dir, 'upload.csv'), 'w+', 0o600)
  } finally {
    await rm(dir, { recursive: true, force: true })
  }
}

/** The upload written to a private file as it arrives, counted and hashed; a 413 past `maxBytes`. */
async function store(file: Readable, maxBytes: number): Promise<{ handle: FileHandle; bytes: number; sha256: string }> {
  const handle = await privateFile()
  try {
    const hash = createHash('sha256')
    let bytes = 0
    for await (const chunk of file as AsyncIterable<Buffer>) {
      bytes += chunk.length
      if (bytes > maxBytes) throw tooLarge(maxBytes)
      hash.update(chunk)
      await handle.write(chunk)
    }
    if ((file as Readable & { truncated?: boolean }).truncated) throw tooLarge(maxBytes)
    return { handle, bytes, sha256: hash.digest('hex') }
  } catch (error) {
    await handle.close()
    // busboy's own count of the file's bytes says the same.
    throw (error as { code?: string }).code === 'FST_REQ_FILE_TOO_LARGE' ? tooLarge(maxBytes) : error
  }
}

/** The stored file from its start; the handle stays open for whoever reads it next. */
const bytesOf = (handle: FileHandle) => handle.createReadStream({ start: 0, autoClose: false }) as AsyncIterable<Buffer> & Readable

export async function importRoutes(app: FastifyInstance, { maxBytes }: { maxBytes: number }) {
  await app.register(multipart)
  app.addContentTypeParser('text/csv', { parseAs: 'buffer', bodyLimit: IMPORT_PREVIEW_BYTES }, (_request, body, done) => done(null, body))
  const worker = { store: app.store, hash: (email: string) => app.suppressions.hash(email), rules: app.rowRules, log: app.log }

  // Imports at work in this process: asked to stop when it closes (each ends as failed, its prefix kept).
  const running = new Set<{ stop: AbortController; done: Promise<unknown> }>()
  app.addHook('onClose', async () => {
    for (const job of running) job.stop.abort()
    await Promise.all([...running].map((job) => job.done))
  })

  /** A request that says it is larger than any file we take is answered before a byte of it is read. */
  const refuseDeclaredSize = async (request: FastifyRequest) => {
    const declared = Number(request.headers['content-length'])
    if (Number.isFinite(declared) && declared > maxBytes + FIELDS_ALLOWANCE) throw tooLarge(maxBytes)
  }

  app.post(
    '/imports',
    { config: { permission: 'signups:import', recent: true, accepts: 'multipart/form-data' }, onRequest: refuseDeclaredSize },
    async (request, reply): Promise<ImportStarted> => {
      if (!request.isMultipart())
        throw new HttpError(415, 'multipart_required', 'Send multipart/form-data: the fields mode, basis, existing and label, then file')
      const raw: Record<string, string> = {}
      let upload: Awaited<ReturnType<typeof store>> | undefined
      let fields: ReturnType<typeof checkFields> | undefined
      try {
        for await (const part of request.parts({ limits: { fileSize: maxBytes, files: 1, fields: 8, fieldSize: 4_096 } })) {
          if (part.type === 'field') {
            if (upload === undefined) raw[part.fieldname] = String(part.value)
            continue
          }
          if (part.fieldname !== 'file')
            throw new HttpError(400, 'invalid_body', `${part.fieldname}: the file goes in the field named file`)
          // The fields came first: checked before a byte of the file is stored.
          fields = checkFields(raw, (field) => field)
          if (!fields.ok) throw new HttpError(400, 'invalid_body', fields.problem)
          if (await app.store.imports.running()) throw busy()
          upload = await store(part.file, maxBytes)
        }
      } catch (error) {
        await upload?.handle.close()
        if ((error as { code?: string }).code === 'FST_FILES_LIMIT') throw new HttpError(400, 'invalid_body', 'file: one file only')
        throw error
      }
      fields ??= checkFields(raw, (field) => field)
      if (!fields.ok) throw new HttpError(400, 'invalid_body', fields.problem)
      if (!upload) throw new HttpError(400, 'invalid_body', 'file: required, after the other fields')
      const { handle, bytes, sha256 } = upload
      let started = false
      try {
        const head = await fileHeader(bytesOf(handle))
        if (!head.ok) throw new HttpError(400, 'invalid_body', `file: ${head.problem}`)
        const { mode, existing, basis, label } = fields.fields
        const begun = await app.store.imports.start(
          { mode, existing, basis, label, sha256, bytes, ignoredColumns: head.header.ignored, leaseMs: IMPORT_LEASE_MS },
          (id) => auditOf(request, 'import started', `import ${id}`),
        )
        if (begun === 'busy') throw busy()
        started = true
        const stop = new AbortController()
        const job = {
          stop,
          done: runImport(worker, { id: begun.id, mode, source: bytesOf(handle), signal: stop.signal })
            .catch((error: unknown) => app.log.error({ err: error, import: begun.id }, 'import: the worker failed'))
            .finally(() => {
              running.delete(job)
              return handle.close()
            }),
        }
        running.add(job)
        request.log.info({ import: begun.id, bytes }, 'import: started')
        return reply.code(202).send({ id: begun.id })
      } finally {
        if (!started) await handle.close()
      }
    },
  )

  app.post(
    '/imports/preview',
    {
      config: { permission: 'signups:import', accepts: 'text/csv' },
      schema: {
        querystring: { type: 'object', additionalProperties: false, properties: { partial: { type: 'boolean', default: false } } },
      },
    },
    async (request): Promise<ImportPreview> => {
      if (!Buffer.isBuffer(request.body))
        throw new HttpError(415, 'csv_required', `Send the file's first bytes (at most ${IMPORT_PREVIEW_BYTES}) as text/csv`)
      const { partial } = request.query as { partial: boolean }
      const bytes = request.body
      const head = await fileHeader(Readable.from([bytes]))
      if (!head.ok) throw new HttpError(400, 'invalid_body', `file: ${head.problem}`)
      const rows: ImportPreviewRow[] = []
      const seen = new Set<string>()
      let first = true
      for await (const item of readCsv(Readable.from([bytes]))) {
        // The slice of a longer file ends inside a record: that one is left out.
        if ('broken' in item || (partial && item.endByte >= bytes.length)) break
        if (isBlank(item.cells)) continue
        if (first) {
          first = false
          continue
        }
        const read = readRecord(item.cells, head.header, 'subscribe', app.rowRules)
        if (!read.ok) {
          rows.push({
            line: item.line,
            email: read.email,
            locale: 'en',
            country: null,
            role: null,
            breeds: [],
            side: null,
            error: read.reason,
          })
        } else {
          const { email, locale, country, role, breeds, side } = read.record
          const repeat = seen.has(email.toLowerCase())
          seen.add(email.toLowerCase())
          rows.push({
            line: item.line,
            email,
            locale,
            country,
            role,
            side,
            breeds: breeds.map(({ name, breed }) => ({ name, breed })),
            error: repeat ? 'repeat' : null,
          })
        }
        if (rows.length >= IMPORT_PREVIEW_ROWS) break
      }
      const firstLine =
        bytes
          .toString('utf8', 0, Math.min(bytes.length, 4_096))
          .replace(/^\uFEFF/, '')
          .split(/\r\n|\r|\n/, 1)[0] ?? ''
      return { delimiter: delimiterOf(firstLine), columns: head.header.names, ignoredColumns: head.header.ignored, rows }
    },
  )

  app.get('/imports', { config: { permission: 'signups:import' } }, async () => ({ items: await app.store.imports.list(LISTED) }))

  app.get('/imports/:id', { config: { permission: 'signups:import' }, schema: { params: idParams } }, async (request) => {
    const status = await app.store.imports.status((request.params as { id: number }).id)
    if (!status) throw new HttpError(404, 'not_found', 'No such import')
    return status
  })

  app.post('/imports/:id/cancel', { config: { permission: 'signups:import' }, schema: { params: idParams } }, async (request) => {
    const { id } = request.params as { id: number }
    const cancelled = await app.store.imports.cancel(id, auditOf(request, 'import cancelled', `import ${id}`))
    if (cancelled === undefined) throw new HttpError(404, 'not_found', 'No such import')
    if (cancelled === 'ended') throw new HttpError(409, 'not_running', 'The import has ended already: nothing to cancel')
    return cancelled
  })

  app.get(
    '/imports/:id/errors.csv',
    { config: { permission: 'signups:import' }, schema: { params: idParams } },
    async (request, reply: FastifyReply) => {
      const { id } = request.params as { id: number }
      if (!(await app.store.imports.status(id))) throw new HttpError(404, 'not_found', 'No such import')
      return reply
        .type('text/csv; charset=utf-8')
        .header('content-disposition', `attachment; filename="kennect-import-${id}-errors.csv"`)
        .send(Readable.from(errorsCsv(app.store, id)))
    },
  )
}

const busy = () => new HttpError(409, 'import_running', 'Another import is running: one at a time. Wait for it to end, or cancel it.')
