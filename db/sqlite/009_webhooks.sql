-- Webhooks (docs/decisions/018-webhooks.md): endpoints, the events they get, one delivery per event
-- and endpoint, and each attempt's line. An event and its deliveries are written by triggers in the
-- transaction of the change they report, so no path that changes a sign-up can forget one.
CREATE TABLE webhook_endpoints (
  id              INTEGER PRIMARY KEY AUTOINCREMENT,
  url             TEXT NOT NULL CONSTRAINT webhook_url CHECK (length(url) <= 2048),
  description     TEXT NOT NULL DEFAULT '',
  -- A JSON array of event types.
  events          TEXT NOT NULL CONSTRAINT webhook_events_list CHECK (json_valid(events) AND json_array_length(events) > 0),
  enabled         INTEGER NOT NULL DEFAULT 1,
  include_email   INTEGER NOT NULL DEFAULT 0,
  -- whsec_…: kept as it is, since signing needs it; shown once, when made or rotated.
  secret          TEXT NOT NULL,
  -- After a rotation the old secret signs too, until then.
  previous_secret TEXT,
  previous_until  TEXT,
  disabled_reason TEXT,
  -- The first failure since the last delivery (five days of them disable the endpoint).
  failing_since   TEXT,
  created_at      TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')),
  updated_at      TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))
);

CREATE TABLE webhook_events (
  id         INTEGER PRIMARY KEY AUTOINCREMENT,
  -- webhook-id: the same on every attempt of every delivery of this event.
  message_id TEXT NOT NULL UNIQUE,
  type       TEXT NOT NULL,
  -- Not a reference: a deleted sign-up's event stays (and carries no address).
  signup_id  INTEGER,
  data       TEXT NOT NULL CONSTRAINT webhook_event_data CHECK (json_valid(data)),
  created_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))
);

CREATE TABLE webhook_deliveries (
  id              INTEGER PRIMARY KEY AUTOINCREMENT,
  event_id        INTEGER NOT NULL REFERENCES webhook_events (id) ON DELETE CASCADE,
  endpoint_id     INTEGER NOT NULL REFERENCES webhook_endpoints (id) ON DELETE CASCADE,
  state           TEXT NOT NULL DEFAULT 'pending' CONSTRAINT webhook_delivery_state CHECK (state IN ('pending', 'delivering', 'delivered', 'failed')),
  attempts        INTEGER NOT NULL DEFAULT 0,
  next_attempt_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')),
  lease_until     TEXT,
  last_status     INTEGER,
  last_error      TEXT,
  created_at      TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')),
  delivered_at    TEXT,
  UNIQUE (event_id, endpoint_id)
);
CREATE INDEX webhook_deliveries_due ON webhook_deliveries (state, next_attempt_at);
CREATE INDEX webhook_deliveries_endpoint ON webhook_deliveries (endpoint_id, state, created_at);

CREATE TABLE webhook_attempts (
  id          INTEGER PRIMARY KEY AUTOINCREMENT,
  delivery_id INTEGER NOT NULL REFERENCES webhook_deliveries (id) ON DELETE CASCADE,
  endpoint_id INTEGER NOT NULL REFERENCES webhook_endpoints (id) ON DELETE CASCADE,
  event_type  TEXT NOT NULL,
  attempt     INTEGER NOT NULL,
  at          TEXT NOT NULL,
  duration_ms INTEGER NOT NULL,
  status      INTEGER,
  -- The first 200 bytes of the answer, or why there was none.
  response    TEXT,
  error       TEXT
);
CREATE INDEX webhook_attempts_endpoint ON webhook_attempts (endpoint_id, id);
CREATE INDEX webhook_attempts_at ON webhook_attempts (at);

-- What has been announced once for good (a campaign finished, a country ready): `campaign:12`, `country:DE`.
CREATE TABLE webhook_announced (
  key TEXT PRIMARY KEY,
  at  TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))
);

-- Each event gets a delivery to every enabled endpoint that takes its type, whoever writes it (the
-- triggers below, or the worker's announcements). A test event names its one endpoint itself.
CREATE TRIGGER webhook_fan_out AFTER INSERT ON webhook_events
BEGIN
  INSERT INTO webhook_deliveries (event_id, endpoint_id)
    SELECT NEW.id, webhook_endpoints.id FROM webhook_endpoints, json_each(webhook_endpoints.events)
    WHERE enabled = 1 AND json_each.value = NEW.type;
END;

-- A sign-up as an event carries it: id, role, country, breeds, locale, source; never the address
-- (added at sending, for an endpoint that asks for it).
CREATE TRIGGER webhook_signup_created AFTER INSERT ON waitlist
WHEN EXISTS (SELECT 1 FROM webhook_endpoints, json_each(webhook_endpoints.events) WHERE enabled = 1 AND json_each.value = 'signup.created')
BEGIN
  INSERT INTO webhook_events (message_id, type, signup_id, data) VALUES ('msg_' || lower(hex(randomblob(16))), 'signup.created', NEW.id,
    json_object('id', NEW.id, 'role', NEW.role, 'country', NEW.country, 'breeds', json(NEW.breeds), 'locale', NEW.locale, 'source', coalesce(NEW.utm_source, NEW.referrer)));
END;

CREATE TRIGGER webhook_signup_deleted AFTER DELETE ON waitlist
WHEN EXISTS (SELECT 1 FROM webhook_endpoints, json_each(webhook_endpoints.events) WHERE enabled = 1 AND json_each.value = 'signup.deleted')
BEGIN
  INSERT INTO webhook_events (message_id, type, signup_id, data) VALUES ('msg_' || lower(hex(randomblob(16))), 'signup.deleted', OLD.id,
    json_object('id', OLD.id, 'role', OLD.role, 'country', OLD.country, 'breeds', json(OLD.breeds), 'locale', OLD.locale, 'source', coalesce(OLD.utm_source, OLD.referrer)));
END;

CREATE TRIGGER webhook_signup_confirmed AFTER UPDATE OF confirmed_at ON waitlist
WHEN OLD.confirmed_at IS NULL AND NEW.confirmed_at IS NOT NULL
  AND EXISTS (SELECT 1 FROM webhook_endpoints, json_each(webhook_endpoints.events) WHERE enabled = 1 AND json_each.value = 'signup.confirmed')
BEGIN
  INSERT INTO webhook_events (message_id, type, signup_id, data) VALUES ('msg_' || lower(hex(randomblob(16))), 'signup.confirmed', NEW.id,
    json_object('id', NEW.id, 'role', NEW.role, 'country', NEW.country, 'breeds', json(NEW.breeds), 'locale', NEW.locale, 'source', coalesce(NEW.utm_source, NEW.referrer)));
END;

CREATE TRIGGER webhook_signup_unsubscribed AFTER UPDATE OF unsubscribed_at ON waitlist
WHEN OLD.unsubscribed_at IS NULL AND NEW.unsubscribed_at IS NOT NULL
  AND EXISTS (SELECT 1 FROM webhook_endpoints, json_each(webhook_endpoints.events) WHERE enabled = 1 AND json_each.value = 'signup.unsubscribed')
BEGIN
  INSERT INTO webhook_events (message_id, type, signup_id, data) VALUES ('msg_' || lower(hex(randomblob(16))), 'signup.unsubscribed', NEW.id,
    json_object('id', NEW.id, 'role', NEW.role, 'country', NEW.country, 'breeds', json(NEW.breeds), 'locale', NEW.locale, 'source', coalesce(NEW.utm_source, NEW.referrer)));
END;

CREATE TRIGGER webhook_signup_profile AFTER UPDATE OF role, breeds, country, locale ON waitlist
WHEN (OLD.role IS NOT NEW.role OR OLD.breeds IS NOT NEW.breeds OR OLD.country IS NOT NEW.country OR OLD.locale IS NOT NEW.locale)
  AND EXISTS (SELECT 1 FROM webhook_endpoints, json_each(webhook_endpoints.events) WHERE enabled = 1 AND json_each.value = 'signup.profile_updated')
BEGIN
  INSERT INTO webhook_events (message_id, type, signup_id, data) VALUES ('msg_' || lower(hex(randomblob(16))), 'signup.profile_updated', NEW.id,
    json_object('id', NEW.id, 'role', NEW.role, 'country', NEW.country, 'breeds', json(NEW.breeds), 'locale', NEW.locale, 'source', coalesce(NEW.utm_source, NEW.referrer)));
END;

-- The invitee's confirmation credited to its inviter: the invitee is the sign-up, the inviter its `inviter`.
CREATE TRIGGER webhook_invite_confirmed AFTER UPDATE OF invite_credited_at ON waitlist
WHEN OLD.invite_credited_at IS NULL AND NEW.invite_credited_at IS NOT NULL
  AND EXISTS (SELECT 1 FROM webhook_endpoints, json_each(webhook_endpoints.events) WHERE enabled = 1 AND json_each.value = 'invite.confirmed')
BEGIN
  INSERT INTO webhook_events (message_id, type, signup_id, data) VALUES ('msg_' || lower(hex(randomblob(16))), 'invite.confirmed', NEW.id,
    json_object('id', NEW.id, 'role', NEW.role, 'country', NEW.country, 'breeds', json(NEW.breeds), 'locale', NEW.locale, 'source', coalesce(NEW.utm_source, NEW.referrer), 'inviter', NEW.invited_by));
END;

-- An owner's mail about a disabled endpoint goes through the outbox too: a third kind of
-- recipient, an operator, and the mail's words in `note`. The table is made again (SQLite cannot
-- change a CHECK in place), rows and indexes kept.
CREATE TABLE outbox_new (
  id              INTEGER PRIMARY KEY AUTOINCREMENT,
  signup_id       INTEGER REFERENCES waitlist (id) ON DELETE CASCADE,
  link_id         INTEGER REFERENCES operator_links (id) ON DELETE CASCADE,
  operator_id     INTEGER REFERENCES operators (id) ON DELETE CASCADE,
  kind            TEXT NOT NULL CONSTRAINT outbox_kind CHECK (kind IN ('confirm', 'campaign', 'team-invite', 'team-sign-in', 'webhook-disabled')),
  campaign_id     INTEGER,
  -- The Message-ID's left part, fixed when the row is made: a resend is the same message. Unique by
  -- making (128 random bits), without an index: a random key costs every insert a B-tree descent.
  message_key     TEXT NOT NULL,
  state           TEXT NOT NULL DEFAULT 'queued' CONSTRAINT outbox_state CHECK (state IN ('queued', 'sending', 'sent', 'failed', 'bounced')),
  attempts        INTEGER NOT NULL DEFAULT 0,
  next_attempt_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')),
  lease_until     TEXT,
  -- The token this mail carries, in clear only until the mail is sent or given up.
  token           TEXT,
  -- What an operator's notice says (JSON).
  note            TEXT CONSTRAINT outbox_note CHECK (note IS NULL OR json_valid(note)),
  last_error      TEXT,
  created_at      TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')),
  sent_at         TEXT,
  CONSTRAINT outbox_recipient CHECK ((signup_id IS NOT NULL) + (link_id IS NOT NULL) + (operator_id IS NOT NULL) = 1)
);
INSERT INTO outbox_new (id, signup_id, link_id, kind, campaign_id, message_key, state, attempts, next_attempt_at, lease_until, token, last_error, created_at, sent_at)
  SELECT id, signup_id, link_id, kind, campaign_id, message_key, state, attempts, next_attempt_at, lease_until, token, last_error, created_at, sent_at FROM outbox;
DROP TABLE outbox;
ALTER TABLE outbox_new RENAME TO outbox;
CREATE INDEX outbox_due ON outbox (state, next_attempt_at);
CREATE INDEX outbox_signup ON outbox (signup_id);
-- Only operators' rows have these: a sign-up's mail skips both indexes.
CREATE INDEX outbox_link ON outbox (link_id) WHERE link_id IS NOT NULL;
CREATE INDEX outbox_operator ON outbox (operator_id) WHERE operator_id IS NOT NULL;
CREATE UNIQUE INDEX outbox_campaign_recipient ON outbox (campaign_id, signup_id) WHERE campaign_id IS NOT NULL;
CREATE INDEX outbox_campaign_state ON outbox (campaign_id, state) WHERE campaign_id IS NOT NULL;
-- The claim's order: campaigns last (confirmations and operators' mails go first), then the longest due.
CREATE INDEX outbox_claim ON outbox (kind = 'campaign', next_attempt_at, id) WHERE state IN ('queued', 'sending');
