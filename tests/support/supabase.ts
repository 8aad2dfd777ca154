// The official client, as a page or a script would use it. On Node 20 its realtime part needs a
// WebSocket implementation handed in, though these tests never open a channel.
import { createClient } from '@supabase/supabase-js'
import WebSocket from 'ws'

export function supabaseClient(url: string, key: string, options: { schema?: string } = {}) {
  return createClient(url, key, {
    auth: { persistSession: false, autoRefreshToken: false },
    realtime: { transport: WebSocket as never },
    db: { schema: options.schema ?? 'public' },
  })
}
