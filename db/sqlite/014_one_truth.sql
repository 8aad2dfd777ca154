-- One truth for each fact (docs/decisions/021-tallies.md).
--
-- 1. Every derived count is a row of `tallies` (kind, key, field): a breed × country's studs, a
--    campaign's mails, a domain's complaints, a day's sends, the outbox's mails in each state. They
--    are kept by triggers as the rows they count change; nothing else writes them. SQLite has one
--    writer at a time, so a trigger adds to its tally at once (PostgreSQL's triggers write deltas
--    that one folder adds up, in one order: db/postgres/014).
-- 2. A profile's breeds are its rows in `signup_breeds`, nothing else: the typed-name array and the
--    ids and sides copied onto the sign-up go, and whatever showed them reads the rows.
-- 3. A sign-up's webhook payload is written once, in the view `webhook_signup`; the triggers that
--    emit events read it, so a change of the payload is a change of the view alone.

CREATE TABLE tallies (
  kind  TEXT NOT NULL,
  key   TEXT NOT NULL,
  field TEXT NOT NULL,
  n     INTEGER NOT NULL DEFAULT 0,
  PRIMARY KEY (kind, key, field)
) WITHOUT ROWID;

-- ── Breeds: confirmed, subscribed profiles per breed × country ('' when not said) ─────────────
-- A person counts once per breed, whatever the spellings they typed it with: a stud from one row
-- and a dam from another make one breeder with both. A trigger cannot see the statement's other
-- rows, so each row's trigger counts the person's contribution to the breeds it touches before the
-- change and after it (this view, read before and after), and adds the difference: summed over a
-- statement's rows, the differences are the whole statement's.
CREATE VIEW breed_contributions AS
  SELECT signup_id, breed, country,
    max(side IS 'stud' OR side IS 'both') AS studs, max(side IS 'dam' OR side IS 'both') AS dams, max(side IS 'seeker') AS seekers, 1 AS profiles
  FROM signup_breeds WHERE breed IS NOT NULL AND counted = 1
  GROUP BY signup_id, breed, country;

CREATE TABLE tally_fields (kind TEXT NOT NULL, field TEXT NOT NULL, PRIMARY KEY (kind, field)) WITHOUT ROWID;
INSERT INTO tally_fields (kind, field) VALUES ('breed', 'studs'), ('breed', 'dams'), ('breed', 'seekers'), ('breed', 'profiles');

-- Filled once from the rows (the old counts counted a person once per spelling).
INSERT INTO tallies (kind, key, field, n)
  SELECT 'breed', c.breed || '|' || c.country, f.field,
    sum(CASE f.field WHEN 'studs' THEN c.studs WHEN 'dams' THEN c.dams WHEN 'seekers' THEN c.seekers ELSE c.profiles END)
  FROM breed_contributions AS c JOIN tally_fields AS f ON f.kind = 'breed'
  GROUP BY 1, 2, 3 HAVING sum(CASE f.field WHEN 'studs' THEN c.studs WHEN 'dams' THEN c.dams WHEN 'seekers' THEN c.seekers ELSE c.profiles END) <> 0;

DROP TRIGGER breed_counts_insert;
DROP TRIGGER breed_counts_delete;
DROP TRIGGER breed_counts_update;
DROP TABLE breed_counts;

CREATE TRIGGER breed_tally_before_insert BEFORE INSERT ON signup_breeds WHEN NEW.breed IS NOT NULL
BEGIN
  INSERT INTO tallies (kind, key, field, n)
    SELECT 'breed', c.breed || '|' || c.country, f.field,
      -(CASE f.field WHEN 'studs' THEN c.studs WHEN 'dams' THEN c.dams WHEN 'seekers' THEN c.seekers ELSE c.profiles END)
    FROM breed_contributions AS c JOIN tally_fields AS f ON f.kind = 'breed'
    WHERE c.signup_id = NEW.signup_id AND c.breed = NEW.breed
    ON CONFLICT (kind, key, field) DO UPDATE SET n = n + excluded.n;
END;
CREATE TRIGGER breed_tally_after_insert AFTER INSERT ON signup_breeds WHEN NEW.breed IS NOT NULL
BEGIN
  INSERT INTO tallies (kind, key, field, n)
    SELECT 'breed', c.breed || '|' || c.country, f.field,
      CASE f.field WHEN 'studs' THEN c.studs WHEN 'dams' THEN c.dams WHEN 'seekers' THEN c.seekers ELSE c.profiles END
    FROM breed_contributions AS c JOIN tally_fields AS f ON f.kind = 'breed'
    WHERE c.signup_id = NEW.signup_id AND c.breed = NEW.breed
    ON CONFLICT (kind, key, field) DO UPDATE SET n = n + excluded.n;
END;
CREATE TRIGGER breed_tally_before_delete BEFORE DELETE ON signup_breeds WHEN OLD.breed IS NOT NULL
BEGIN
  INSERT INTO tallies (kind, key, field, n)
    SELECT 'breed', c.breed || '|' || c.country, f.field,
      -(CASE f.field WHEN 'studs' THEN c.studs WHEN 'dams' THEN c.dams WHEN 'seekers' THEN c.seekers ELSE c.profiles END)
    FROM breed_contributions AS c JOIN tally_fields AS f ON f.kind = 'breed'
    WHERE c.signup_id = OLD.signup_id AND c.breed = OLD.breed
    ON CONFLICT (kind, key, field) DO UPDATE SET n = n + excluded.n;
END;
CREATE TRIGGER breed_tally_after_delete AFTER DELETE ON signup_breeds WHEN OLD.breed IS NOT NULL
BEGIN
  INSERT INTO tallies (kind, key, field, n)
    SELECT 'breed', c.breed || '|' || c.country, f.field,
      CASE f.field WHEN 'studs' THEN c.studs WHEN 'dams' THEN c.dams WHEN 'seekers' THEN c.seekers ELSE c.profiles END
    FROM breed_contributions AS c JOIN tally_fields AS f ON f.kind = 'breed'
    WHERE c.signup_id = OLD.signup_id AND c.breed = OLD.breed
    ON CONFLICT (kind, key, field) DO UPDATE SET n = n + excluded.n;
END;
CREATE TRIGGER breed_tally_before_update BEFORE UPDATE OF breed, side, country, counted ON signup_breeds
WHEN OLD.breed IS NOT NULL OR NEW.breed IS NOT NULL
BEGIN
  INSERT INTO tallies (kind, key, field, n)
    SELECT 'breed', c.breed || '|' || c.country, f.field,
      -(CASE f.field WHEN 'studs' THEN c.studs WHEN 'dams' THEN c.dams WHEN 'seekers' THEN c.seekers ELSE c.profiles END)
    FROM breed_contributions AS c JOIN tally_fields AS f ON f.kind = 'breed'
    WHERE c.signup_id = NEW.signup_id AND c.breed IN (OLD.breed, NEW.breed)
    ON CONFLICT (kind, key, field) DO UPDATE SET n = n + excluded.n;
END;
CREATE TRIGGER breed_tally_after_update AFTER UPDATE OF breed, side, country, counted ON signup_breeds
WHEN OLD.breed IS NOT NULL OR NEW.breed IS NOT NULL
BEGIN
  INSERT INTO tallies (kind, key, field, n)
    SELECT 'breed', c.breed || '|' || c.country, f.field,
      CASE f.field WHEN 'studs' THEN c.studs WHEN 'dams' THEN c.dams WHEN 'seekers' THEN c.seekers ELSE c.profiles END
    FROM breed_contributions AS c JOIN tally_fields AS f ON f.kind = 'breed'
    WHERE c.signup_id = NEW.signup_id AND c.breed IN (OLD.breed, NEW.breed)
    ON CONFLICT (kind, key, field) DO UPDATE SET n = n + excluded.n;
END;

-- A profile that named one breed by two spellings had the later row's id cleared (so that it
-- counted once): that row has its id again, and the name leaves the list of names the catalogue
-- missed. The server reads every name again at start (below), which gives it back.
UPDATE signup_breeds SET name_key = NULL WHERE breed IS NULL;

-- ── Mail: what became of every mail, per campaign, per recipient domain, per UTC day ─────────
-- kind 'mail' (key '': every mail), 'mail-campaign' (key: its id), 'mail-domain' (key: the
-- recipient's domain), fields: sent (handed to the mail server: state sent or bounced), refused
-- (of them, refused at once: bounced), hard (a hard bounce reported after the server took it),
-- soft, complained (distinct mails with such an event), unsubscribed (a sign-up who stopped e-mails
-- after it: its last campaign mail, its domain). kind 'mail-day' (key: the day): sent (state sent),
-- complaints (by the day they came). kind 'mail-unattributed' (key ''): events tied to no mail.
-- A deleted sign-up's mails stay counted: a domain and a day name no one.
-- kind 'outbox' (key: the campaign's id, '' for other mails), field: the state: the mails in each
-- state now (a deleted sign-up's mails go with it).

-- An outbox row's campaign, and its recipient's domain (a sign-up's: operators' mails are counted
-- among every mail, in no domain).
CREATE VIEW outbox_recipients AS
  SELECT outbox.id, outbox.campaign_id, lower(substr(w.email, instr(w.email, '@') + 1)) AS domain
  FROM outbox LEFT JOIN waitlist AS w ON w.id = outbox.signup_id;

-- Filled once from the rows, as the triggers below would have kept them. Mails counted before
-- were a sign-up's: an operator's sent mails still in the outbox are added.
INSERT INTO tallies (kind, key, field, n)
  SELECT 'outbox', coalesce(campaign_id, ''), state, count(*) FROM outbox GROUP BY 1, 2, 3;
INSERT INTO tallies (kind, key, field, n)
  SELECT kind, key, field, sum(n) FROM (
    SELECT 'mail' AS kind, '' AS key, 'sent' AS field, sent AS n FROM mail_domain_counts
    UNION ALL SELECT 'mail', '', 'refused', refused FROM mail_domain_counts
    UNION ALL SELECT 'mail-domain', domain, 'sent', sent FROM mail_domain_counts
    UNION ALL SELECT 'mail-domain', domain, 'refused', refused FROM mail_domain_counts
    UNION ALL SELECT 'mail', '', 'sent', 1 FROM outbox WHERE signup_id IS NULL AND state IN ('sent', 'bounced')
    UNION ALL SELECT 'mail', '', 'refused', 1 FROM outbox WHERE signup_id IS NULL AND state = 'bounced'
    UNION ALL SELECT 'mail-campaign', campaign_id, 'sent', sent FROM mail_campaign_counts
    UNION ALL SELECT 'mail-campaign', campaign_id, 'refused', refused FROM mail_campaign_counts
    UNION ALL SELECT 'mail-day', day, 'sent', sent FROM mail_day_counts
    UNION ALL SELECT 'mail-day', day, 'complaints', complaints FROM mail_complaint_days
  ) GROUP BY 1, 2, 3 HAVING sum(n) <> 0;
-- Events: distinct mails with each kind (a hard bounce only where the server first took the mail).
WITH counted AS (
  SELECT DISTINCT e.outbox_id, CASE e.type WHEN 'hard-bounce' THEN 'hard' WHEN 'soft-bounce' THEN 'soft' ELSE 'complained' END AS field
  FROM mail_events AS e JOIN outbox ON outbox.id = e.outbox_id
  WHERE outbox.state IN ('sent', 'bounced') AND (e.type <> 'hard-bounce' OR outbox.state = 'sent')
)
INSERT INTO tallies (kind, key, field, n)
  SELECT 'mail', '', field, count(*) FROM counted GROUP BY field
  UNION ALL SELECT 'mail-campaign', r.campaign_id, field, count(*) FROM counted JOIN outbox_recipients AS r ON r.id = counted.outbox_id
    WHERE r.campaign_id IS NOT NULL GROUP BY 2, 3
  UNION ALL SELECT 'mail-domain', r.domain, field, count(*) FROM counted JOIN outbox_recipients AS r ON r.id = counted.outbox_id
    WHERE r.domain IS NOT NULL GROUP BY 2, 3;
INSERT INTO tallies (kind, key, field, n)
  SELECT 'mail-unattributed', '', CASE type WHEN 'hard-bounce' THEN 'hard' WHEN 'soft-bounce' THEN 'soft' ELSE 'complained' END, count(*)
  FROM mail_events WHERE outbox_id IS NULL GROUP BY 3;

DROP TRIGGER outbox_counted;
DROP TRIGGER mail_complaint_counted;
DROP TABLE mail_domain_counts;
DROP TABLE mail_day_counts;
DROP TABLE mail_campaign_counts;
DROP TABLE mail_complaint_days;

-- The outbox's states.
CREATE TRIGGER outbox_tally_insert AFTER INSERT ON outbox
BEGIN
  INSERT INTO tallies (kind, key, field, n) VALUES ('outbox', coalesce(NEW.campaign_id, ''), NEW.state, 1)
    ON CONFLICT (kind, key, field) DO UPDATE SET n = n + 1;
END;
CREATE TRIGGER outbox_tally_delete AFTER DELETE ON outbox
BEGIN
  UPDATE tallies SET n = n - 1 WHERE kind = 'outbox' AND key = coalesce(OLD.campaign_id, '') AND field = OLD.state;
END;
CREATE TRIGGER outbox_tally_update AFTER UPDATE OF state ON outbox WHEN OLD.state IS NOT NEW.state
BEGIN
  UPDATE tallies SET n = n - 1 WHERE kind = 'outbox' AND key = coalesce(OLD.campaign_id, '') AND field = OLD.state;
  INSERT INTO tallies (kind, key, field, n) VALUES ('outbox', coalesce(NEW.campaign_id, ''), NEW.state, 1)
    ON CONFLICT (kind, key, field) DO UPDATE SET n = n + 1;
END;

-- A mail handed to the mail server (and perhaps refused at once), counted for every mail, its
-- campaign, its recipient's domain, and (accepted) its day.
CREATE TRIGGER outbox_tally_handed AFTER UPDATE OF state ON outbox
WHEN NEW.state IN ('sent', 'bounced') AND OLD.state NOT IN ('sent', 'bounced')
BEGIN
  INSERT INTO tallies (kind, key, field, n)
    SELECT s.kind, s.key, f.field, 1
    FROM (SELECT 'mail' AS kind, '' AS key UNION ALL SELECT 'mail-campaign', NEW.campaign_id WHERE NEW.campaign_id IS NOT NULL
          UNION ALL SELECT 'mail-domain', domain FROM outbox_recipients WHERE id = NEW.id AND domain IS NOT NULL) AS s,
      (SELECT 'sent' AS field UNION ALL SELECT 'refused' WHERE NEW.state = 'bounced') AS f
    WHERE true
    ON CONFLICT (kind, key, field) DO UPDATE SET n = n + 1;
  INSERT INTO tallies (kind, key, field, n)
    SELECT 'mail-day', substr(coalesce(NEW.sent_at, strftime('%Y-%m-%dT%H:%M:%fZ', 'now')), 1, 10), 'sent', 1 WHERE NEW.state = 'sent'
    ON CONFLICT (kind, key, field) DO UPDATE SET n = n + 1;
END;

-- A bounce or complaint: counted once per mail and kind, for the mail's campaign and domain; a
-- hard bounce only for a mail the server took (one it refused is counted as refused already).
-- Complaints by their day, whatever they are tied to.
CREATE TRIGGER mail_events_tally AFTER INSERT ON mail_events
BEGIN
  INSERT INTO tallies (kind, key, field, n)
    SELECT s.kind, s.key, CASE NEW.type WHEN 'hard-bounce' THEN 'hard' WHEN 'soft-bounce' THEN 'soft' ELSE 'complained' END, 1
    FROM (SELECT 'mail' AS kind, '' AS key UNION ALL SELECT 'mail-campaign', campaign_id FROM outbox_recipients WHERE id = NEW.outbox_id AND campaign_id IS NOT NULL
          UNION ALL SELECT 'mail-domain', domain FROM outbox_recipients WHERE id = NEW.outbox_id AND domain IS NOT NULL) AS s
    WHERE NEW.outbox_id IS NOT NULL
      AND EXISTS (SELECT 1 FROM outbox WHERE id = NEW.outbox_id AND state IN ('sent', 'bounced') AND (NEW.type <> 'hard-bounce' OR state = 'sent'))
      AND NOT EXISTS (SELECT 1 FROM mail_events AS earlier WHERE earlier.outbox_id = NEW.outbox_id AND earlier.type = NEW.type AND earlier.id <> NEW.id)
    ON CONFLICT (kind, key, field) DO UPDATE SET n = n + 1;
  INSERT INTO tallies (kind, key, field, n)
    SELECT 'mail-unattributed', '', CASE NEW.type WHEN 'hard-bounce' THEN 'hard' WHEN 'soft-bounce' THEN 'soft' ELSE 'complained' END, 1
    WHERE NEW.outbox_id IS NULL
    ON CONFLICT (kind, key, field) DO UPDATE SET n = n + 1;
  INSERT INTO tallies (kind, key, field, n)
    SELECT 'mail-day', substr(NEW.at, 1, 10), 'complaints', 1 WHERE NEW.type = 'complaint'
    ON CONFLICT (kind, key, field) DO UPDATE SET n = n + 1;
END;

-- Stopping e-mails counts for the campaign whose mail the sign-up had last before it, and for its
-- domain if it was ever mailed; starting them again takes that count back.
CREATE VIEW unsubscribe_tallies AS
  SELECT w.id AS signup_id, w.unsubscribed_at,
    (SELECT o.campaign_id FROM outbox AS o WHERE o.signup_id = w.id AND o.campaign_id IS NOT NULL AND o.state = 'sent' AND o.sent_at <= w.unsubscribed_at
     ORDER BY o.sent_at DESC, o.id DESC LIMIT 1) AS campaign_id,
    CASE WHEN EXISTS (SELECT 1 FROM outbox AS o WHERE o.signup_id = w.id AND o.state = 'sent' AND o.sent_at <= w.unsubscribed_at)
      THEN lower(substr(w.email, instr(w.email, '@') + 1)) END AS domain
  FROM waitlist AS w WHERE w.unsubscribed_at IS NOT NULL;

INSERT INTO tallies (kind, key, field, n)
  SELECT 'mail-campaign', campaign_id, 'unsubscribed', count(*) FROM unsubscribe_tallies WHERE campaign_id IS NOT NULL GROUP BY 2;
INSERT INTO tallies (kind, key, field, n)
  SELECT 'mail-domain', domain, 'unsubscribed', count(*) FROM unsubscribe_tallies WHERE domain IS NOT NULL GROUP BY 2;

CREATE TRIGGER unsubscribe_tally_before BEFORE UPDATE OF unsubscribed_at ON waitlist
WHEN OLD.unsubscribed_at IS NOT NULL AND NEW.unsubscribed_at IS NOT OLD.unsubscribed_at
BEGIN
  INSERT INTO tallies (kind, key, field, n)
    SELECT 'mail-campaign', campaign_id, 'unsubscribed', -1 FROM unsubscribe_tallies WHERE signup_id = OLD.id AND campaign_id IS NOT NULL
    UNION ALL SELECT 'mail-domain', domain, 'unsubscribed', -1 FROM unsubscribe_tallies WHERE signup_id = OLD.id AND domain IS NOT NULL
    ON CONFLICT (kind, key, field) DO UPDATE SET n = n + excluded.n;
END;
CREATE TRIGGER unsubscribe_tally_after AFTER UPDATE OF unsubscribed_at ON waitlist
WHEN NEW.unsubscribed_at IS NOT NULL AND NEW.unsubscribed_at IS NOT OLD.unsubscribed_at
BEGIN
  INSERT INTO tallies (kind, key, field, n)
    SELECT 'mail-campaign', campaign_id, 'unsubscribed', 1 FROM unsubscribe_tallies WHERE signup_id = NEW.id AND campaign_id IS NOT NULL
    UNION ALL SELECT 'mail-domain', domain, 'unsubscribed', 1 FROM unsubscribe_tallies WHERE signup_id = NEW.id AND domain IS NOT NULL
    ON CONFLICT (kind, key, field) DO UPDATE SET n = n + excluded.n;
END;

-- ── A profile's breeds are its rows; the payload of sign-up events is written here once ──────
DROP TRIGGER webhook_signup_created;
DROP TRIGGER webhook_signup_deleted;
DROP TRIGGER webhook_signup_confirmed;
DROP TRIGGER webhook_signup_unsubscribed;
DROP TRIGGER webhook_signup_profile;
DROP TRIGGER webhook_invite_confirmed;

CREATE VIEW webhook_signup AS
  SELECT w.id, json_object('id', w.id, 'role', w.role, 'country', w.country,
    -- json(): a subquery's JSON is text to the outer json_object without it.
    'breeds', json((SELECT json_group_array(name) FROM (SELECT name FROM signup_breeds WHERE signup_id = w.id ORDER BY position))),
    'sides', json((SELECT json_group_array(json_object('breed', breed, 'side', side))
      FROM (SELECT breed, side FROM signup_breeds WHERE signup_id = w.id ORDER BY position))),
    'locale', w.locale, 'source', coalesce(w.utm_source, w.referrer)) AS data
  FROM waitlist AS w;

-- Whether any enabled endpoint takes an event type.
CREATE VIEW webhook_wanted AS
  SELECT DISTINCT json_each.value AS type FROM webhook_endpoints, json_each(webhook_endpoints.events) WHERE enabled = 1;

-- A profile saved: the store moves this when what the payload says of it changed (its breeds are
-- rows of another table, which the sign-up's own columns cannot show).
ALTER TABLE waitlist ADD COLUMN profile_changed_at TEXT;

CREATE TRIGGER webhook_signup_created AFTER INSERT ON waitlist
WHEN EXISTS (SELECT 1 FROM webhook_wanted WHERE type = 'signup.created')
BEGIN
  INSERT INTO webhook_events (message_id, type, signup_id, data)
    SELECT 'msg_' || lower(hex(randomblob(16))), 'signup.created', NEW.id, data FROM webhook_signup WHERE id = NEW.id;
END;

-- Before the row goes, while its breeds are still there to be named.
CREATE TRIGGER webhook_signup_deleted BEFORE DELETE ON waitlist
WHEN EXISTS (SELECT 1 FROM webhook_wanted WHERE type = 'signup.deleted')
BEGIN
  INSERT INTO webhook_events (message_id, type, signup_id, data)
    SELECT 'msg_' || lower(hex(randomblob(16))), 'signup.deleted', OLD.id, data FROM webhook_signup WHERE id = OLD.id;
END;

CREATE TRIGGER webhook_signup_confirmed AFTER UPDATE OF confirmed_at ON waitlist
WHEN OLD.confirmed_at IS NULL AND NEW.confirmed_at IS NOT NULL AND EXISTS (SELECT 1 FROM webhook_wanted WHERE type = 'signup.confirmed')
BEGIN
  INSERT INTO webhook_events (message_id, type, signup_id, data)
    SELECT 'msg_' || lower(hex(randomblob(16))), 'signup.confirmed', NEW.id, data FROM webhook_signup WHERE id = NEW.id;
END;

CREATE TRIGGER webhook_signup_unsubscribed AFTER UPDATE OF unsubscribed_at ON waitlist
WHEN OLD.unsubscribed_at IS NULL AND NEW.unsubscribed_at IS NOT NULL AND EXISTS (SELECT 1 FROM webhook_wanted WHERE type = 'signup.unsubscribed')
BEGIN
  INSERT INTO webhook_events (message_id, type, signup_id, data)
    SELECT 'msg_' || lower(hex(randomblob(16))), 'signup.unsubscribed', NEW.id, data FROM webhook_signup WHERE id = NEW.id;
END;

CREATE TRIGGER webhook_signup_profile AFTER UPDATE OF role, country, locale, profile_changed_at ON waitlist
WHEN (OLD.role IS NOT NEW.role OR OLD.country IS NOT NEW.country OR OLD.locale IS NOT NEW.locale OR OLD.profile_changed_at IS NOT NEW.profile_changed_at)
  AND EXISTS (SELECT 1 FROM webhook_wanted WHERE type = 'signup.profile_updated')
BEGIN
  INSERT INTO webhook_events (message_id, type, signup_id, data)
    SELECT 'msg_' || lower(hex(randomblob(16))), 'signup.profile_updated', NEW.id, data FROM webhook_signup WHERE id = NEW.id;
END;

CREATE TRIGGER webhook_invite_confirmed AFTER UPDATE OF invite_credited_at ON waitlist
WHEN OLD.invite_credited_at IS NULL AND NEW.invite_credited_at IS NOT NULL AND EXISTS (SELECT 1 FROM webhook_wanted WHERE type = 'invite.confirmed')
BEGIN
  INSERT INTO webhook_events (message_id, type, signup_id, data)
    SELECT 'msg_' || lower(hex(randomblob(16))), 'invite.confirmed', NEW.id, json_set(data, '$.inviter', NEW.invited_by)
    FROM webhook_signup WHERE id = NEW.id;
END;

ALTER TABLE waitlist DROP COLUMN breeds;
ALTER TABLE waitlist DROP COLUMN breed_sides;
