-- Into the app (docs/decisions/022-into-the-app.md): the phone each sign-up uses, its app link
-- /app/<code>, what became of the link (mailed, opened in a browser, claimed by the app), the app's
-- own token role, and the hand-off's tallies and webhook event, kept by triggers as the rest are
-- (docs/decisions/021-tallies.md).

-- The phone a join's user agent named (nothing else of the agent is kept), or the one the visitor
-- said on their page. Null for sign-ups from before it was recorded.
ALTER TABLE waitlist ADD COLUMN platform TEXT CONSTRAINT waitlist_platform CHECK (platform IN ('ios', 'android', 'other'));

-- The app's own token role: `app` claims profiles and can do nothing else. SQLite cannot change a
-- CHECK in place: the table is made again, rows kept (nothing references it yet).
CREATE TABLE api_tokens_new (
  id           INTEGER PRIMARY KEY AUTOINCREMENT,
  name         TEXT NOT NULL,
  role         TEXT NOT NULL CONSTRAINT api_tokens_role CHECK (role IN ('owner', 'editor', 'viewer', 'app')),
  token_hash   TEXT NOT NULL UNIQUE,
  created_by   INTEGER REFERENCES operators (id) ON DELETE SET NULL,
  created_at   TEXT NOT NULL,
  expires_at   TEXT,
  last_used_at TEXT,
  revoked_at   TEXT
);
INSERT INTO api_tokens_new (id, name, role, token_hash, created_by, created_at, expires_at, last_used_at, revoked_at)
  SELECT id, name, role, token_hash, created_by, created_at, expires_at, last_used_at, revoked_at FROM api_tokens;
DROP TABLE api_tokens;
ALTER TABLE api_tokens_new RENAME TO api_tokens;

-- One app link per sign-up, made when its first campaign mail is made (the outbox's claim): the code
-- is its own secret, never the /me/ token, and kept as it is, since every wave's mail repeats it
-- (a profile is handed over only to an `app` token that brings it). Gone with the sign-up.
CREATE TABLE app_links (
  signup_id  INTEGER PRIMARY KEY REFERENCES waitlist (id) ON DELETE CASCADE,
  code       TEXT NOT NULL UNIQUE,
  created_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')),
  -- The first mail holding the link that the mail server took.
  invited_at TEXT,
  -- The first time its page was served to a browser (the app, installed, opens the link itself).
  opened_at  TEXT,
  -- When the app took the profile, and with which token.
  claimed_at TEXT,
  claimed_by INTEGER REFERENCES api_tokens (id) ON DELETE SET NULL
);

-- ── The hand-off's tallies: invited, opened, claimed, once per person when it first happened ──
-- kind 'app' (key ''), 'app-country' (the country said then, '' for none), 'app-breed'
-- (`breed|country`, as the breed tallies are keyed: each breed of the catalogue named then, a person
-- once per breed). They never go down: a deleted sign-up's hand-off happened.
CREATE VIEW app_tally_keys AS
  SELECT id AS signup_id, 'app' AS kind, '' AS key FROM waitlist
  UNION ALL SELECT id, 'app-country', coalesce(country, '') FROM waitlist
  UNION ALL SELECT DISTINCT named.signup_id, 'app-breed', named.breed || '|' || coalesce(w.country, '')
    FROM signup_breeds AS named JOIN waitlist AS w ON w.id = named.signup_id WHERE named.breed IS NOT NULL;

CREATE TRIGGER app_links_invited AFTER UPDATE OF invited_at ON app_links
WHEN OLD.invited_at IS NULL AND NEW.invited_at IS NOT NULL
BEGIN
  INSERT INTO tallies (kind, key, field, n) SELECT kind, key, 'invited', 1 FROM app_tally_keys WHERE signup_id = NEW.signup_id
    ON CONFLICT (kind, key, field) DO UPDATE SET n = n + 1;
END;
CREATE TRIGGER app_links_opened AFTER UPDATE OF opened_at ON app_links
WHEN OLD.opened_at IS NULL AND NEW.opened_at IS NOT NULL
BEGIN
  INSERT INTO tallies (kind, key, field, n) SELECT kind, key, 'opened', 1 FROM app_tally_keys WHERE signup_id = NEW.signup_id
    ON CONFLICT (kind, key, field) DO UPDATE SET n = n + 1;
END;
CREATE TRIGGER app_links_claimed AFTER UPDATE OF claimed_at ON app_links
WHEN OLD.claimed_at IS NULL AND NEW.claimed_at IS NOT NULL
BEGIN
  INSERT INTO tallies (kind, key, field, n) SELECT kind, key, 'claimed', 1 FROM app_tally_keys WHERE signup_id = NEW.signup_id
    ON CONFLICT (kind, key, field) DO UPDATE SET n = n + 1;
END;

-- ── signup.claimed: the sign-up's one payload (the view webhook_signup) and when ──────────────
CREATE TRIGGER webhook_signup_claimed AFTER UPDATE OF claimed_at ON app_links
WHEN OLD.claimed_at IS NULL AND NEW.claimed_at IS NOT NULL AND EXISTS (SELECT 1 FROM webhook_wanted WHERE type = 'signup.claimed')
BEGIN
  INSERT INTO webhook_events (message_id, type, signup_id, data)
    SELECT 'msg_' || lower(hex(randomblob(16))), 'signup.claimed', NEW.signup_id, json_set(data, '$.claimedAt', NEW.claimed_at)
    FROM webhook_signup WHERE id = NEW.signup_id;
END;
