// The PostgREST error catalogue (docs/protocol.md, "Answers"): one function per row of the table,
// named by situation. Used only by the /rest/v1 route; rows 7 and 19 (payload too large, store
// unavailable) are written by the app's error handler (server/http/errors.ts) for every route.
import { WAITLIST_TABLE } from '../../contract/waitlist.js'
import { HttpError, retryHint } from '../http/errors.js'
import type { RowFailure } from './check-row.js'

/** A PostgREST answer. Supabase's gateway's own 401s carry only message and hint. */
export class PostgrestError extends HttpError {
  override name = 'PostgrestError'
  readonly gateway: boolean

  constructor(
    status: number,
    code: string | null,
    message: string,
    extra: { details?: string | null; hint?: string | null; headers?: Record<string, string>; gateway?: boolean } = {},
  ) {
    super(status, code, message, extra)
    this.gateway = extra.gateway ?? false
  }

  override body(): object {
    return this.gateway ? { message: this.message, hint: this.hint } : super.body()
  }
}

const checkViolation = (constraint: string) =>
  new PostgrestError(400, '23514', `new row for relation "${WAITLIST_TABLE}" violates check constraint "${constraint}"`)

export const postgrestErrors = {
  rateLimited: (retryAfterSeconds: number) =>
    new PostgrestError(429, 'over_request_rate_limit', 'Too many requests', {
      hint: retryHint(retryAfterSeconds),
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
  contentTypeNotAcceptable: (contentType: string) => new PostgrestError(400, 'PGRST102', `Content-Type not acceptable: ${contentType}`),
  invalidJson: () => new PostgrestError(400, 'PGRST102', 'Empty or invalid json'),
  jsonTooDeep: (maxDepth: number) =>
    new PostgrestError(400, 'PGRST102', 'Empty or invalid json', { details: `JSON nested deeper than ${maxDepth} levels` }),
  keysMustMatch: () => new PostgrestError(400, 'PGRST102', 'All object keys must match'),
  tooManyRows: () => new PostgrestError(400, 'too_many_rows', 'Too many rows in request body'),
  unknownColumn: (key: string) =>
    new PostgrestError(400, 'PGRST204', `Could not find the '${key}' column of '${WAITLIST_TABLE}' in the schema cache`),
  onConflict: () => new PostgrestError(400, '42P10', 'there is no unique or exclusion constraint matching the ON CONFLICT specification'),
  permissionDenied: () =>
    new PostgrestError(401, '42501', `permission denied for table ${WAITLIST_TABLE}`, { headers: { 'www-authenticate': 'Bearer' } }),
  putNotAllowed: () => new PostgrestError(405, 'PGRST105', 'Filter on primary key is required for PUT'),
  tableNotFound: (table: string) => new PostgrestError(404, 'PGRST205', `Could not find the table 'public.${table}' in the schema cache`),
  invalidPath: () => new PostgrestError(404, 'PGRST125', 'Invalid path specified in request URL'),
  /** Rows 14 to 18: the rule a row broke, as the table's constraint would report it. */
  rowRefused: (failure: RowFailure): PostgrestError => {
    switch (failure.rule) {
      case 'email-missing':
        return new PostgrestError(400, '23502', `null value in column "email" of relation "${WAITLIST_TABLE}" violates not-null constraint`)
      case 'nul-character':
        return new PostgrestError(400, '22P05', 'unsupported Unicode escape sequence', { details: '\\u0000 cannot be converted to text.' })
      case 'email-format':
        return checkViolation('waitlist_email_format')
      case 'email-length':
        return checkViolation('waitlist_email_length')
      case 'attribution-length':
        return checkViolation('waitlist_attribution_length')
    }
  },
}
