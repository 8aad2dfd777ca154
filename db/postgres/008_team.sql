-- The team (docs/decisions/017-the-team.md): operators with roles, their passkeys, single-use
-- links (the first owner's setup, invitations, e-mail sign-in), sessions, API tokens and the
-- audit log. Secrets are kept only as SHA-256 hashes.
CREATE TABLE operators (
  id          integer GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  email       text NOT NULL,
  name        text NOT NULL DEFAULT '',
  role        text NOT NULL CONSTRAINT operators_role CHECK (role IN ('owner', 'editor', 'viewer')),
  -- The WebAuthn user handle: random, never the address.
  user_handle text NOT NULL UNIQUE,
  disabled_at timestamptz,
  created_at  timestamptz NOT NULL DEFAULT now()
);
CREATE UNIQUE INDEX operators_email ON operators (lower(email));

CREATE TABLE operator_passkeys (
  -- The credential's id, base64url.
  id           text PRIMARY KEY,
  operator_id  integer NOT NULL REFERENCES operators (id) ON DELETE CASCADE,
  name         text NOT NULL,
  -- The COSE public key, base64url.
  public_key   text NOT NULL,
  counter      bigint NOT NULL DEFAULT 0,
  transports   jsonb NOT NULL DEFAULT '[]',
  created_at   timestamptz NOT NULL DEFAULT now(),
  last_used_at timestamptz
);
CREATE INDEX operator_passkeys_operator ON operator_passkeys (operator_id);

-- A mailed link's token is made when the outbox first claims its mail, as a visitor's page token.
CREATE TABLE operator_links (
  id          integer GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  purpose     text NOT NULL CONSTRAINT operator_links_purpose CHECK (purpose IN ('setup', 'invite', 'sign-in')),
  -- Null for a setup link that does not name its owner (the first start's): the page asks.
  email       text,
  role        text CONSTRAINT operator_links_role CHECK (role IN ('owner', 'editor', 'viewer')),
  operator_id integer REFERENCES operators (id) ON DELETE CASCADE,
  created_by  integer REFERENCES operators (id) ON DELETE SET NULL,
  token_hash  text UNIQUE,
  expires_at  timestamptz NOT NULL,
  used_at     timestamptz,
  created_at  timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX operator_links_email ON operator_links (lower(email), created_at);

CREATE TABLE operator_sessions (
  id_hash      text PRIMARY KEY,
  operator_id  integer NOT NULL REFERENCES operators (id) ON DELETE CASCADE,
  -- The sign-in: every sign-in makes a new session, so this is also when it signed in.
  created_at   timestamptz NOT NULL DEFAULT now(),
  last_seen_at timestamptz NOT NULL DEFAULT now(),
  expires_at   timestamptz NOT NULL
);
CREATE INDEX operator_sessions_operator ON operator_sessions (operator_id);

CREATE TABLE api_tokens (
  id           integer GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  name         text NOT NULL,
  role         text NOT NULL CONSTRAINT api_tokens_role CHECK (role IN ('owner', 'editor', 'viewer')),
  token_hash   text NOT NULL UNIQUE,
  created_by   integer REFERENCES operators (id) ON DELETE SET NULL,
  created_at   timestamptz NOT NULL DEFAULT now(),
  expires_at   timestamptz,
  last_used_at timestamptz,
  revoked_at   timestamptz
);

CREATE TABLE webauthn_challenges (
  id          text PRIMARY KEY,
  challenge   text NOT NULL,
  -- The WebAuthn user handle a registration was offered with (a new operator has no row yet).
  user_handle text,
  -- The signed-in operator adding a passkey, or null for a sign-in or a setup.
  operator_id integer REFERENCES operators (id) ON DELETE CASCADE,
  expires_at  timestamptz NOT NULL
);

CREATE TABLE audit_log (
  id         bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  at         timestamptz NOT NULL DEFAULT now(),
  -- No reference: the log keeps who it was after the operator is gone.
  actor_id   integer,
  actor      text NOT NULL,
  action     text NOT NULL,
  target     text,
  detail     jsonb,
  request_id text
);
CREATE INDEX audit_log_at ON audit_log (at);
CREATE FUNCTION audit_log_append_only() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION 'the audit log is append-only';
END;
$$;
CREATE TRIGGER audit_log_append_only BEFORE UPDATE ON audit_log FOR EACH ROW EXECUTE FUNCTION audit_log_append_only();

-- Operators' mails go through the outbox too: a row is for a sign-up or for a link, never both.
ALTER TABLE outbox ALTER COLUMN signup_id DROP NOT NULL;
ALTER TABLE outbox ADD COLUMN link_id integer REFERENCES operator_links (id) ON DELETE CASCADE;
ALTER TABLE outbox DROP CONSTRAINT outbox_kind;
ALTER TABLE outbox ADD CONSTRAINT outbox_kind CHECK (kind IN ('confirm', 'campaign', 'team-invite', 'team-sign-in'));
ALTER TABLE outbox ADD CONSTRAINT outbox_recipient CHECK ((signup_id IS NULL) <> (link_id IS NULL));
CREATE INDEX outbox_link ON outbox (link_id);
-- The claim's order: campaigns last (confirmations and operators' links go first), then the longest due.
DROP INDEX outbox_claim;
CREATE INDEX outbox_claim ON outbox ((kind = 'campaign'), next_attempt_at, id) WHERE state IN ('queued', 'sending');
