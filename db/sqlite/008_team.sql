-- The team (docs/decisions/017-the-team.md): operators with roles, their passkeys, single-use
-- links (the first owner's setup, invitations, e-mail sign-in), sessions, API tokens and the
-- audit log. Secrets are kept only as SHA-256 hashes; times are ISO 8601 text in UTC.
CREATE TABLE operators (
  id          INTEGER PRIMARY KEY AUTOINCREMENT,
  email       TEXT NOT NULL,
  name        TEXT NOT NULL DEFAULT '',
  role        TEXT NOT NULL CONSTRAINT operators_role CHECK (role IN ('owner', 'editor', 'viewer')),
  -- The WebAuthn user handle: random, never the address.
  user_handle TEXT NOT NULL UNIQUE,
  disabled_at TEXT,
  created_at  TEXT NOT NULL
);
CREATE UNIQUE INDEX operators_email ON operators (lower(email));

CREATE TABLE operator_passkeys (
  -- The credential's id, base64url.
  id           TEXT PRIMARY KEY,
  operator_id  INTEGER NOT NULL REFERENCES operators (id) ON DELETE CASCADE,
  name         TEXT NOT NULL,
  -- The COSE public key, base64url.
  public_key   TEXT NOT NULL,
  counter      INTEGER NOT NULL DEFAULT 0,
  transports   TEXT NOT NULL DEFAULT '[]',
  created_at   TEXT NOT NULL,
  last_used_at TEXT
);
CREATE INDEX operator_passkeys_operator ON operator_passkeys (operator_id);

-- A mailed link's token is made when the outbox first claims its mail, as a visitor's page token.
CREATE TABLE operator_links (
  id          INTEGER PRIMARY KEY AUTOINCREMENT,
  purpose     TEXT NOT NULL CONSTRAINT operator_links_purpose CHECK (purpose IN ('setup', 'invite', 'sign-in')),
  -- Null for a setup link that does not name its owner (the first start's): the page asks.
  email       TEXT,
  role        TEXT CONSTRAINT operator_links_role CHECK (role IN ('owner', 'editor', 'viewer')),
  operator_id INTEGER REFERENCES operators (id) ON DELETE CASCADE,
  created_by  INTEGER REFERENCES operators (id) ON DELETE SET NULL,
  token_hash  TEXT UNIQUE,
  expires_at  TEXT NOT NULL,
  used_at     TEXT,
  created_at  TEXT NOT NULL
);
CREATE INDEX operator_links_email ON operator_links (lower(email), created_at);

CREATE TABLE operator_sessions (
  id_hash      TEXT PRIMARY KEY,
  operator_id  INTEGER NOT NULL REFERENCES operators (id) ON DELETE CASCADE,
  -- The sign-in: every sign-in makes a new session, so this is also when it signed in.
  created_at   TEXT NOT NULL,
  last_seen_at TEXT NOT NULL,
  expires_at   TEXT NOT NULL
);
CREATE INDEX operator_sessions_operator ON operator_sessions (operator_id);

CREATE TABLE api_tokens (
  id           INTEGER PRIMARY KEY AUTOINCREMENT,
  name         TEXT NOT NULL,
  role         TEXT NOT NULL CONSTRAINT api_tokens_role CHECK (role IN ('owner', 'editor', 'viewer')),
  token_hash   TEXT NOT NULL UNIQUE,
  created_by   INTEGER REFERENCES operators (id) ON DELETE SET NULL,
  created_at   TEXT NOT NULL,
  expires_at   TEXT,
  last_used_at TEXT,
  revoked_at   TEXT
);

CREATE TABLE webauthn_challenges (
  id          TEXT PRIMARY KEY,
  challenge   TEXT NOT NULL,
  -- The WebAuthn user handle a registration was offered with (a new operator has no row yet).
  user_handle TEXT,
  -- The signed-in operator adding a passkey, or null for a sign-in or a setup.
  operator_id INTEGER REFERENCES operators (id) ON DELETE CASCADE,
  expires_at  TEXT NOT NULL
);

CREATE TABLE audit_log (
  id         INTEGER PRIMARY KEY AUTOINCREMENT,
  at         TEXT NOT NULL,
  -- No reference: the log keeps who it was after the operator is gone.
  actor_id   INTEGER,
  actor      TEXT NOT NULL,
  action     TEXT NOT NULL,
  target     TEXT,
  detail     TEXT CONSTRAINT audit_log_detail CHECK (detail IS NULL OR json_valid(detail)),
  request_id TEXT
);
CREATE INDEX audit_log_at ON audit_log (at);
CREATE TRIGGER audit_log_append_only BEFORE UPDATE ON audit_log
BEGIN
  SELECT RAISE(ABORT, 'the audit log is append-only');
END;

-- Operators' mails go through the outbox too: a row is for a sign-up or for a link, never both.
-- SQLite cannot loosen a NOT NULL in place: the table is made again, rows and indexes kept.
CREATE TABLE outbox_new (
  id              INTEGER PRIMARY KEY AUTOINCREMENT,
  signup_id       INTEGER REFERENCES waitlist (id) ON DELETE CASCADE,
  link_id         INTEGER REFERENCES operator_links (id) ON DELETE CASCADE,
  kind            TEXT NOT NULL CONSTRAINT outbox_kind CHECK (kind IN ('confirm', 'campaign', 'team-invite', 'team-sign-in')),
  campaign_id     INTEGER,
  -- The Message-ID's left part, fixed when the row is made: a resend is the same message.
  message_key     TEXT NOT NULL UNIQUE,
  state           TEXT NOT NULL DEFAULT 'queued' CONSTRAINT outbox_state CHECK (state IN ('queued', 'sending', 'sent', 'failed', 'bounced')),
  attempts        INTEGER NOT NULL DEFAULT 0,
  next_attempt_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')),
  lease_until     TEXT,
  -- The token this mail carries, in clear only until the mail is sent or given up.
  token           TEXT,
  last_error      TEXT,
  created_at      TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')),
  sent_at         TEXT,
  CONSTRAINT outbox_recipient CHECK ((signup_id IS NULL) <> (link_id IS NULL))
);
INSERT INTO outbox_new (id, signup_id, kind, campaign_id, message_key, state, attempts, next_attempt_at, lease_until, token, last_error, created_at, sent_at)
  SELECT id, signup_id, kind, campaign_id, message_key, state, attempts, next_attempt_at, lease_until, token, last_error, created_at, sent_at FROM outbox;
DROP TABLE outbox;
ALTER TABLE outbox_new RENAME TO outbox;
CREATE INDEX outbox_due ON outbox (state, next_attempt_at);
CREATE INDEX outbox_signup ON outbox (signup_id);
CREATE INDEX outbox_link ON outbox (link_id);
CREATE UNIQUE INDEX outbox_campaign_recipient ON outbox (campaign_id, signup_id) WHERE campaign_id IS NOT NULL;
CREATE INDEX outbox_campaign_state ON outbox (campaign_id, state) WHERE campaign_id IS NOT NULL;
-- The claim's order: campaigns last (confirmations and operators' links go first), then the longest due.
CREATE INDEX outbox_claim ON outbox (kind = 'campaign', next_attempt_at, id) WHERE state IN ('queued', 'sending');
