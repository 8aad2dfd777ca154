-- Mail events and suppression (docs/decisions/019-suppression.md): every bounce and complaint,
-- whichever way it arrives, is a row tied to the address by a keyed hash (and to the sign-up while
-- it exists); an address that must not be mailed again is suppressed, by that hash. While its
-- sign-up exists the address is kept beside it for the operators' list; when the sign-up is
-- deleted the hash alone stays, so a later sign-up of that address is still never mailed.
CREATE TABLE mail_events (
  id         INTEGER PRIMARY KEY AUTOINCREMENT,
  at         TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')),
  email_hash TEXT NOT NULL,
  signup_id  INTEGER REFERENCES waitlist (id) ON DELETE CASCADE,
  outbox_id  INTEGER REFERENCES outbox (id) ON DELETE SET NULL,
  type       TEXT NOT NULL CONSTRAINT mail_events_type CHECK (type IN ('hard-bounce', 'soft-bounce', 'complaint')),
  source     TEXT NOT NULL CONSTRAINT mail_events_source CHECK (length(source) BETWEEN 1 AND 40),
  -- The provider's own id of the event: one delivered twice counts once.
  event_id   TEXT UNIQUE
);
CREATE INDEX mail_events_hash ON mail_events (email_hash, type, at);
CREATE INDEX mail_events_signup ON mail_events (signup_id);
CREATE INDEX mail_events_outbox ON mail_events (outbox_id) WHERE outbox_id IS NOT NULL;

CREATE TABLE suppressions (
  email_hash TEXT PRIMARY KEY,
  email      TEXT,
  reason     TEXT NOT NULL CONSTRAINT suppressions_reason CHECK (reason IN ('hard-bounce', 'soft-bounce', 'complaint', 'manual')),
  at         TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))
);
CREATE INDEX suppressions_email ON suppressions (email);

-- A deleted sign-up leaves its suppression as the hash alone.
CREATE TRIGGER suppressions_forget AFTER DELETE ON waitlist
BEGIN
  UPDATE suppressions SET email = NULL WHERE email = lower(OLD.email);
END;

-- The key of the hashes: made once, kept with the data it protects.
INSERT INTO settings (key, value, updated_at)
  VALUES ('suppression_key', json_quote(lower(hex(randomblob(32)))), strftime('%Y-%m-%dT%H:%M:%fZ', 'now'));

-- A wave that pauses itself says why (its bounces or complaints over the last deliveries).
ALTER TABLE campaigns ADD COLUMN paused_reason TEXT;
