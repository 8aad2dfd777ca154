-- Growth (docs/decisions/015-growth.md): invite links, the launch targets, and the funnel's page
-- views. An invite code is made when the sign-up is confirmed (128 random bits); a sign-up made
-- through one points at its inviter, a link that deleting the inviter removes.
ALTER TABLE waitlist ADD COLUMN invite_code TEXT;
ALTER TABLE waitlist ADD COLUMN invited_by INTEGER REFERENCES waitlist (id) ON DELETE SET NULL;
-- When this sign-up's confirmation was credited to its inviter (at most 20 per inviter per UTC
-- day); null: not credited (unconfirmed, or over that limit, or the inviter had stopped e-mails).
ALTER TABLE waitlist ADD COLUMN invite_credited_at TEXT;
CREATE UNIQUE INDEX waitlist_invite_code ON waitlist (invite_code) WHERE invite_code IS NOT NULL;
CREATE INDEX waitlist_invited_by ON waitlist (invited_by, invite_credited_at) WHERE invited_by IS NOT NULL;
-- Sign-ups confirmed before codes existed get theirs now (the server makes the others at confirmation).
UPDATE waitlist SET invite_code = lower(hex(randomblob(16))) WHERE confirmed_at IS NOT NULL AND invite_code IS NULL;
-- Who waits where: the launch meters and the landing page's total count these rows only.
CREATE INDEX waitlist_waiting ON waitlist (country, role) WHERE confirmed_at IS NOT NULL AND unsubscribed_at IS NULL;

-- The team's settings, one JSON value per key (the launch targets).
CREATE TABLE settings (
  key        TEXT PRIMARY KEY,
  value      TEXT NOT NULL CONSTRAINT settings_value CHECK (json_valid(value)),
  updated_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))
);

-- Landing-page views per UTC day and source, and the day's distinct visitors (counted by a keyed
-- hash that is kept in memory for the day only: nothing per visitor is stored).
CREATE TABLE page_views (
  day      TEXT NOT NULL,
  source   TEXT NOT NULL,
  views    INTEGER NOT NULL DEFAULT 0,
  visitors INTEGER NOT NULL DEFAULT 0,
  PRIMARY KEY (day, source)
) WITHOUT ROWID;
