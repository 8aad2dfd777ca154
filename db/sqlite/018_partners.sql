-- Partners (docs/decisions/025-partners.md): a breed club or kennel that puts the waitlist on its own
-- site by a public key bound to its origins. A sign-up records the partner it first joined through
-- (a known address joining again changes nothing: it belongs to the way it first joined); the
-- partner's figures are tallies (docs/decisions/021-tallies.md), and the sign-up's webhook payload
-- names it.

CREATE TABLE partners (
  id          INTEGER PRIMARY KEY AUTOINCREMENT,
  name        TEXT NOT NULL CONSTRAINT partners_name CHECK (length(name) BETWEEN 1 AND 100),
  -- Public (it is in the club's page), but one rotated is refused at once: looked up by it.
  key         TEXT NOT NULL UNIQUE,
  -- A JSON array of exact origins (`https://club.example`).
  origins     TEXT NOT NULL,
  thanks_url  TEXT,
  -- The catalogue's id and a country code: the meter its embed shows.
  breed       TEXT,
  country     TEXT,
  disabled_at TEXT,
  created_at  TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')),
  updated_at  TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))
);

-- Partners are disabled, never deleted; should one go, its sign-ups stay, credited to no one.
ALTER TABLE waitlist ADD COLUMN partner_id INTEGER REFERENCES partners (id) ON DELETE SET NULL;
CREATE INDEX waitlist_partner ON waitlist (partner_id) WHERE partner_id IS NOT NULL;

-- kind 'partner', key the partner's id, fields 'signups' (every sign-up that first joined through
-- it) and 'confirmed' (of them, those who confirmed: its credit). A deleted sign-up leaves both.
CREATE TRIGGER waitlist_partner_insert AFTER INSERT ON waitlist
WHEN NEW.partner_id IS NOT NULL
BEGIN
  INSERT INTO tallies (kind, key, field, n) VALUES
    ('partner', CAST(NEW.partner_id AS TEXT), 'signups', 1),
    ('partner', CAST(NEW.partner_id AS TEXT), 'confirmed', NEW.confirmed_at IS NOT NULL)
  ON CONFLICT (kind, key, field) DO UPDATE SET n = n + excluded.n;
END;

CREATE TRIGGER waitlist_partner_delete AFTER DELETE ON waitlist
WHEN OLD.partner_id IS NOT NULL
BEGIN
  UPDATE tallies SET n = n - 1 WHERE kind = 'partner' AND key = CAST(OLD.partner_id AS TEXT)
    AND (field = 'signups' OR (field = 'confirmed' AND OLD.confirmed_at IS NOT NULL));
END;

CREATE TRIGGER waitlist_partner_update AFTER UPDATE OF partner_id, confirmed_at ON waitlist
WHEN OLD.partner_id IS NOT NEW.partner_id OR (OLD.partner_id IS NOT NULL AND (OLD.confirmed_at IS NULL) IS NOT (NEW.confirmed_at IS NULL))
BEGIN
  UPDATE tallies SET n = n - 1 WHERE OLD.partner_id IS NOT NULL AND kind = 'partner' AND key = CAST(OLD.partner_id AS TEXT)
    AND (field = 'signups' OR (field = 'confirmed' AND OLD.confirmed_at IS NOT NULL));
  INSERT INTO tallies (kind, key, field, n)
    SELECT 'partner', CAST(NEW.partner_id AS TEXT), 'signups', 1 WHERE NEW.partner_id IS NOT NULL
    UNION ALL SELECT 'partner', CAST(NEW.partner_id AS TEXT), 'confirmed', 1 WHERE NEW.partner_id IS NOT NULL AND NEW.confirmed_at IS NOT NULL
  ON CONFLICT (kind, key, field) DO UPDATE SET n = n + excluded.n;
END;

-- The sign-up's one payload (db/sqlite/014) names its partner: its id, or null.
DROP VIEW webhook_signup;
CREATE VIEW webhook_signup AS
  SELECT w.id, json_object('id', w.id, 'role', w.role, 'country', w.country,
    -- json(): a subquery's JSON is text to the outer json_object without it.
    'breeds', json((SELECT json_group_array(name) FROM (SELECT name FROM signup_breeds WHERE signup_id = w.id ORDER BY position))),
    'sides', json((SELECT json_group_array(json_object('breed', breed, 'side', side))
      FROM (SELECT breed, side FROM signup_breeds WHERE signup_id = w.id ORDER BY position))),
    'locale', w.locale, 'source', coalesce(w.utm_source, w.referrer), 'partner', w.partner_id) AS data
  FROM waitlist AS w;
