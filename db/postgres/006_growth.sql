-- Growth (docs/decisions/015-growth.md): invite links, the launch targets, and the funnel's page
-- views. An invite code is made when the sign-up is confirmed (128 random bits); a sign-up made
-- through one points at its inviter, a link that deleting the inviter removes.
ALTER TABLE waitlist
  ADD COLUMN invite_code text CONSTRAINT waitlist_invite_code CHECK (invite_code ~ '^[A-Za-z0-9_-]{16,64}$'),
  ADD COLUMN invited_by bigint REFERENCES waitlist (id) ON DELETE SET NULL,
  -- When this sign-up's confirmation was credited to its inviter (at most 20 per inviter per UTC
  -- day); null: not credited (unconfirmed, or over that limit, or the inviter had stopped e-mails).
  ADD COLUMN invite_credited_at timestamptz;
CREATE UNIQUE INDEX waitlist_invite_code ON waitlist (invite_code);
CREATE INDEX waitlist_invited_by ON waitlist (invited_by, invite_credited_at) WHERE invited_by IS NOT NULL;
-- Sign-ups confirmed before codes existed get theirs now (the server makes the others at confirmation).
UPDATE waitlist SET invite_code = replace(gen_random_uuid()::text, '-', '') WHERE confirmed_at IS NOT NULL AND invite_code IS NULL;
-- Who waits where: the launch meters and the landing page's total count these rows only.
CREATE INDEX waitlist_waiting ON waitlist (country, role) WHERE confirmed_at IS NOT NULL AND unsubscribed_at IS NULL;

-- The team's settings, one JSON value per key (the launch targets).
CREATE TABLE settings (
  key        text PRIMARY KEY,
  value      jsonb NOT NULL,
  updated_at timestamptz NOT NULL DEFAULT now()
);

-- Landing-page views per UTC day and source, and the day's distinct visitors.
CREATE TABLE page_views (
  day      date NOT NULL,
  source   text NOT NULL,
  views    bigint NOT NULL DEFAULT 0,
  visitors bigint NOT NULL DEFAULT 0,
  PRIMARY KEY (day, source)
);
-- One visitor counts once a day across every instance: the day's keyed hashes, and the day's
-- random key they are made with, shared here and deleted once the day is over. UNLOGGED: never in
-- the WAL or on a replica, and emptied by a crash of the database.
CREATE UNLOGGED TABLE visitor_hashes (
  day  date NOT NULL,
  hash bytea NOT NULL,
  PRIMARY KEY (day, hash)
);
CREATE UNLOGGED TABLE visitor_day_keys (
  day    date PRIMARY KEY,
  secret bytea NOT NULL
);
