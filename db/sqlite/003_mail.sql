-- The mail side of the waitlist (docs/decisions/011-the-outbox.md): what a visitor tells us on
-- their page, the tokens of their page (hashed), and the outbox of mails, each row written in the
-- transaction of what it belongs to.
ALTER TABLE waitlist ADD COLUMN confirmed_at TEXT;
ALTER TABLE waitlist ADD COLUMN unsubscribed_at TEXT;
ALTER TABLE waitlist ADD COLUMN role TEXT CONSTRAINT waitlist_role CHECK (role IN ('breeder', 'owner', 'club', 'enthusiast'));
-- A JSON array of up to five names.
ALTER TABLE waitlist ADD COLUMN breeds TEXT NOT NULL DEFAULT '[]' CONSTRAINT waitlist_breeds CHECK (json_valid(breeds) AND json_array_length(breeds) <= 5);
ALTER TABLE waitlist ADD COLUMN country TEXT CONSTRAINT waitlist_country CHECK (country GLOB '[A-Z][A-Z]');
-- When the last confirmation mail was queued: at most one per 24 hours, however often an address is entered.
ALTER TABLE waitlist ADD COLUMN confirmation_queued_at TEXT;

-- A visitor's page is /me/<token>: only the token's SHA-256 is kept. Every mail carries a token
-- of its own; all of them open the page until the sign-up is deleted.
CREATE TABLE page_tokens (
  token_hash TEXT PRIMARY KEY,
  signup_id  INTEGER NOT NULL REFERENCES waitlist (id) ON DELETE CASCADE,
  created_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))
);
CREATE INDEX page_tokens_signup ON page_tokens (signup_id);

CREATE TABLE outbox (
  id              INTEGER PRIMARY KEY AUTOINCREMENT,
  signup_id       INTEGER NOT NULL REFERENCES waitlist (id) ON DELETE CASCADE,
  kind            TEXT NOT NULL CONSTRAINT outbox_kind CHECK (kind IN ('confirm', 'campaign')),
  campaign_id     INTEGER,
  -- The Message-ID's left part, fixed when the row is made: a resend is the same message.
  message_key     TEXT NOT NULL UNIQUE,
  state           TEXT NOT NULL DEFAULT 'queued' CONSTRAINT outbox_state CHECK (state IN ('queued', 'sending', 'sent', 'failed', 'bounced')),
  attempts        INTEGER NOT NULL DEFAULT 0,
  next_attempt_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')),
  lease_until     TEXT,
  -- The page token this mail carries, in clear only until the mail is sent or given up.
  token           TEXT,
  last_error      TEXT,
  created_at      TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')),
  sent_at         TEXT
);
CREATE INDEX outbox_due ON outbox (state, next_attempt_at);
CREATE INDEX outbox_signup ON outbox (signup_id);
