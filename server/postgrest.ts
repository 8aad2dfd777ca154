// Errors as PostgREST (and Supabase's gateway) answer them: shared/PROTOCOL.md, "Answers". One
// class carries status, body and headers; the error handler only serialises it.

export interface PostgrestBody {
  code: string | null
  details: string | null
  hint: string | null
  message: string
}

export class PostgrestError extends Error {
  override name = 'PostgrestError'
  readonly status: number
  readonly code: string | null
  readonly details: string | null
  readonly hint: string | null
  readonly headers: Record<string, string>
  /** The gateway's 401s carry only message and hint; everything else has all four fields. */
  readonly gateway: boolean

  constructor(
    status: number,
    code: string | null,
    message: string,
    extra: { details?: string | null; hint?: string | null; headers?: Record<string, string>; gateway?: boolean } = {},
  ) {
    super(message)
    this.status = status
    this.code = code
    this.details = extra.details ?? null
    this.hint = extra.hint ?? null
    this.headers = extra.headers ?? {}
    this.gateway = extra.gateway ?? false
  }

  body(): PostgrestBody | { message: string; hint: string | null } {
    if (this.gateway) return { message: this.message, hint: this.hint }
    return { code: this.code, details: this.details, hint: this.hint, message: this.message }
  }
}

const TABLE = 'waitlist'
const checkViolation = (constraint: string) =>
  new PostgrestError(400, '23514', `new row for relation "${TABLE}" violates check constraint "${constraint}"`)

/** The catalogue of PROTOCOL.md, one function per row, named by situation. */
export const errors = {
  rateLimited: (retryAfterSeconds: number) =>
    new PostgrestError(429, 'over_request_rate_limit', 'Too many requests', {
      hint: `Retry after ${retryAfterSeconds} seconds`,
      headers: { 'retry-after': String(retryAfterSeconds) },
    }),
  noApiKey: () =>
    new PostgrestError(401, null, 'No API key found in request', {
      hint: 'No `apikey` request header or url param was found.',
      gateway: true,
    }),
  invalidApiKey: () =>
    new PostgrestError(401, null, 'Invalid API key', {
      hint: 'Double check your Supabase `anon` or `service_role` API key.',
      gateway: true,
    }),
  emptyJwt: () => new PostgrestError(401, 'PGRST301', 'Empty JWT is sent in Authorization header'),
  malformedJwt: (parts: number) => new PostgrestError(401, 'PGRST301', `Expected 3 parts in JWT; got ${parts}`),
  invalidSchema: (schema: string) =>
    new PostgrestError(406, 'PGRST106', `Invalid schema: ${schema}`, { hint: 'Only the following schemas are exposed: public' }),
  contentTypeNotAcceptable: (contentType: string) =>
    new PostgrestError(400, 'PGRST102', `Content-Type not acceptable: ${contentType}`),
  payloadTooLarge: () => new PostgrestError(413, 'payload_too_large', 'Payload Too Large'),
  invalidJson: () => new PostgrestError(400, 'PGRST102', 'Empty or invalid json'),
  jsonTooDeep: (maxDepth: number) =>
    new PostgrestError(400, 'PGRST102', 'Empty or invalid json', { details: `JSON nested deeper than ${maxDepth} levels` }),
  keysMustMatch: () => new PostgrestError(400, 'PGRST102', 'All object keys must match'),
  tooManyRows: () => new PostgrestError(400, 'too_many_rows', 'Too many rows in request body'),
  unknownColumn: (key: string) =>
    new PostgrestError(400, 'PGRST204', `Could not find the '${key}' column of '${TABLE}' in the schema cache`),
  onConflict: () =>
    new PostgrestError(400, '42P10', 'there is no unique or exclusion constraint matching the ON CONFLICT specification'),
  permissionDenied: () =>
    new PostgrestError(401, '42501', `permission denied for table ${TABLE}`, { headers: { 'www-authenticate': 'Bearer' } }),
  notNull: (column: string) =>
    new PostgrestError(400, '23502', `null value in column "${column}" of relation "${TABLE}" violates not-null constraint`),
  nulCharacter: () => new PostgrestError(400, '22P05', 'unsupported Unicode escape sequence', { details: '\\u0000 cannot be converted to text.' }),
  emailFormat: () => checkViolation('waitlist_email_format'),
  emailLength: () => checkViolation('waitlist_email_length'),
  attributionLength: () => checkViolation('waitlist_attribution_length'),
  storeUnavailable: () => new PostgrestError(503, 'PGRST002', 'Could not connect to the database', { hint: 'Please try again.' }),
  putNotAllowed: () => new PostgrestError(405, 'PGRST105', 'Filter on primary key is required for PUT'),
  tableNotFound: (table: string) =>
    new PostgrestError(404, 'PGRST205', `Could not find the table 'public.${table}' in the schema cache`),
  invalidPath: () => new PostgrestError(404, 'PGRST125', 'Invalid path specified in request URL'),
}
