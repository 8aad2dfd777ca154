-- One truth for each fact (docs/decisions/021-tallies.md), as db/sqlite/014 does it for SQLite.
--
-- 1. Every derived count is a row of `tallies` (kind, key, field). Here many transactions write at
--    once: a trigger that added to a shared counter row would lock it, and two transactions locking
--    two rows in opposite orders deadlock (two profiles saving the same breeds in another order did,
--    9 times in 300). So triggers only append their differences to `tally_deltas` (no row is locked
--    but the one inserted), and one folder at a time (an advisory lock) adds them to `tallies` in the
--    keys' order. Readers add the deltas not yet folded, so a count is exact the moment it changed.
-- 2. A profile's breeds are its rows in `signup_breeds`, nothing else.
-- 3. A sign-up's webhook payload is written once, in `webhook_signup(waitlist)`.

CREATE TABLE tallies (
  kind  text NOT NULL,
  key   text NOT NULL,
  field text NOT NULL,
  n     bigint NOT NULL DEFAULT 0,
  PRIMARY KEY (kind, key, field)
);

CREATE TABLE tally_deltas (
  id    bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  kind  text NOT NULL,
  key   text NOT NULL,
  field text NOT NULL,
  n     bigint NOT NULL
);
CREATE INDEX tally_deltas_kind ON tally_deltas (kind);

-- ── Breeds: confirmed, subscribed profiles per breed × country ('' when not said) ─────────────
-- A person counts once per breed, whatever the spellings they typed it with. A BEFORE trigger sees
-- the table as the statement's earlier rows left it: it counts the person's contribution to the
-- breeds its row touches as the rows are, and as they will be with this row's change, and writes
-- the difference; summed over a statement's rows, the differences are the whole statement's.
CREATE FUNCTION breed_contribution_delta(s bigint, breeds text[], skip smallint, extra signup_breeds) RETURNS void LANGUAGE sql AS $$
  INSERT INTO tally_deltas (kind, key, field, n)
  SELECT 'breed', d.breed || '|' || d.country, f.field, sum(CASE f.field WHEN 'studs' THEN d.studs WHEN 'dams' THEN d.dams WHEN 'seekers' THEN d.seekers ELSE d.profiles END)
  FROM (
    -- as they will be: the person's other rows of these breeds, and the row as changed
    SELECT breed, country, max(CASE WHEN side IN ('stud', 'both') THEN 1 ELSE 0 END) AS studs,
      max(CASE WHEN side IN ('dam', 'both') THEN 1 ELSE 0 END) AS dams, max(CASE WHEN side = 'seeker' THEN 1 ELSE 0 END) AS seekers, 1 AS profiles
    FROM (SELECT breed, side, country, counted FROM signup_breeds WHERE signup_id = s AND breed = ANY (breeds) AND position IS DISTINCT FROM skip
          UNION ALL SELECT (extra).breed, (extra).side, (extra).country, (extra).counted WHERE (extra).breed IS NOT NULL) AS after_rows
    WHERE counted GROUP BY breed, country
    UNION ALL
    -- as they are
    SELECT breed, country, -max(CASE WHEN side IN ('stud', 'both') THEN 1 ELSE 0 END), -max(CASE WHEN side IN ('dam', 'both') THEN 1 ELSE 0 END),
      -max(CASE WHEN side = 'seeker' THEN 1 ELSE 0 END), -1
    FROM signup_breeds WHERE signup_id = s AND breed = ANY (breeds) AND counted GROUP BY breed, country
  ) AS d CROSS JOIN (VALUES ('studs'), ('dams'), ('seekers'), ('profiles')) AS f (field)
  GROUP BY d.breed, d.country, f.field
  HAVING sum(CASE f.field WHEN 'studs' THEN d.studs WHEN 'dams' THEN d.dams WHEN 'seekers' THEN d.seekers ELSE d.profiles END) <> 0
$$;

CREATE FUNCTION signup_breeds_tally() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    IF NEW.breed IS NOT NULL THEN PERFORM breed_contribution_delta(NEW.signup_id, ARRAY[NEW.breed], NULL, NEW); END IF;
    RETURN NEW;
  ELSIF TG_OP = 'DELETE' THEN
    IF OLD.breed IS NOT NULL THEN PERFORM breed_contribution_delta(OLD.signup_id, ARRAY[OLD.breed], OLD.position, NULL::signup_breeds); END IF;
    RETURN OLD;
  END IF;
  IF OLD.breed IS NOT NULL OR NEW.breed IS NOT NULL THEN
    PERFORM breed_contribution_delta(NEW.signup_id, array_remove(ARRAY[OLD.breed, NEW.breed], NULL), OLD.position, NEW);
  END IF;
  RETURN NEW;
END $$;

-- Filled once from the rows (the old counts counted a person once per spelling).
INSERT INTO tallies (kind, key, field, n)
  SELECT 'breed', c.breed || '|' || c.country, f.field, sum(CASE f.field WHEN 'studs' THEN c.studs WHEN 'dams' THEN c.dams WHEN 'seekers' THEN c.seekers ELSE 1 END)
  FROM (SELECT signup_id, breed, country, max(CASE WHEN side IN ('stud', 'both') THEN 1 ELSE 0 END) AS studs,
          max(CASE WHEN side IN ('dam', 'both') THEN 1 ELSE 0 END) AS dams, max(CASE WHEN side = 'seeker' THEN 1 ELSE 0 END) AS seekers
        FROM signup_breeds WHERE breed IS NOT NULL AND counted GROUP BY signup_id, breed, country) AS c
    CROSS JOIN (VALUES ('studs'), ('dams'), ('seekers'), ('profiles')) AS f (field)
  GROUP BY 1, 2, 3
  HAVING sum(CASE f.field WHEN 'studs' THEN c.studs WHEN 'dams' THEN c.dams WHEN 'seekers' THEN c.seekers ELSE 1 END) <> 0;

DROP TRIGGER signup_breeds_count ON signup_breeds;
DROP FUNCTION signup_breeds_count();
DROP FUNCTION breed_counts_add(text, text, text, integer);
DROP TABLE breed_counts;
CREATE TRIGGER signup_breeds_tally BEFORE INSERT OR DELETE OR UPDATE OF breed, side, country, counted ON signup_breeds
  FOR EACH ROW EXECUTE FUNCTION signup_breeds_tally();

-- A profile that named one breed by two spellings had the later row's id cleared (so that it
-- counted once): the server reads every such name again at start, which gives it its id back.
UPDATE signup_breeds SET name_key = NULL WHERE breed IS NULL;

-- ── Mail: what became of every mail (kinds and fields as in db/sqlite/014) ───────────────────
CREATE VIEW outbox_recipients AS
  SELECT outbox.id, outbox.campaign_id, lower(substr(w.email, strpos(w.email, '@') + 1)) AS domain
  FROM outbox LEFT JOIN waitlist AS w ON w.id = outbox.signup_id;

INSERT INTO tallies (kind, key, field, n)
  SELECT 'outbox', coalesce(campaign_id::text, ''), state, count(*) FROM outbox GROUP BY 1, 2, 3;
INSERT INTO tallies (kind, key, field, n)
  SELECT kind, key, field, sum(n) FROM (
    SELECT 'mail' AS kind, '' AS key, 'sent' AS field, sent AS n FROM mail_domain_counts
    UNION ALL SELECT 'mail', '', 'refused', refused FROM mail_domain_counts
    UNION ALL SELECT 'mail-domain', domain, 'sent', sent FROM mail_domain_counts
    UNION ALL SELECT 'mail-domain', domain, 'refused', refused FROM mail_domain_counts
    UNION ALL SELECT 'mail', '', 'sent', 1 FROM outbox WHERE signup_id IS NULL AND state IN ('sent', 'bounced')
    UNION ALL SELECT 'mail', '', 'refused', 1 FROM outbox WHERE signup_id IS NULL AND state = 'bounced'
    UNION ALL SELECT 'mail-campaign', campaign_id::text, 'sent', sent FROM mail_campaign_counts
    UNION ALL SELECT 'mail-campaign', campaign_id::text, 'refused', refused FROM mail_campaign_counts
    UNION ALL SELECT 'mail-day', day::text, 'sent', sent FROM mail_day_counts
    UNION ALL SELECT 'mail-day', day::text, 'complaints', complaints FROM mail_complaint_days
  ) AS counts GROUP BY 1, 2, 3 HAVING sum(n) <> 0;
WITH counted AS (
  SELECT DISTINCT e.outbox_id, CASE e.type WHEN 'hard-bounce' THEN 'hard' WHEN 'soft-bounce' THEN 'soft' ELSE 'complained' END AS field
  FROM mail_events AS e JOIN outbox ON outbox.id = e.outbox_id
  WHERE outbox.state IN ('sent', 'bounced') AND (e.type <> 'hard-bounce' OR outbox.state = 'sent')
)
INSERT INTO tallies (kind, key, field, n)
  SELECT 'mail', '', field, count(*) FROM counted GROUP BY field
  UNION ALL SELECT 'mail-campaign', r.campaign_id::text, field, count(*) FROM counted JOIN outbox_recipients AS r ON r.id = counted.outbox_id
    WHERE r.campaign_id IS NOT NULL GROUP BY 2, 3
  UNION ALL SELECT 'mail-domain', r.domain, field, count(*) FROM counted JOIN outbox_recipients AS r ON r.id = counted.outbox_id
    WHERE r.domain IS NOT NULL GROUP BY 2, 3;
INSERT INTO tallies (kind, key, field, n)
  SELECT 'mail-unattributed', '', CASE type WHEN 'hard-bounce' THEN 'hard' WHEN 'soft-bounce' THEN 'soft' ELSE 'complained' END, count(*)
  FROM mail_events WHERE outbox_id IS NULL GROUP BY 3;

DROP TRIGGER outbox_counted ON outbox;
DROP FUNCTION outbox_counted();
DROP TRIGGER mail_complaint_counted ON mail_events;
DROP FUNCTION mail_complaint_counted();
DROP TABLE mail_domain_counts, mail_day_counts, mail_campaign_counts, mail_complaint_days;

-- The outbox's states, and the mails handed to the mail server: once per statement (a campaign
-- of a million rows is one delta per state), from its transition tables.
CREATE FUNCTION outbox_tally() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP IN ('UPDATE', 'DELETE') THEN
    INSERT INTO tally_deltas (kind, key, field, n)
      SELECT 'outbox', coalesce(campaign_id::text, ''), state, -count(*) FROM before_rows GROUP BY 2, 3;
  END IF;
  IF TG_OP IN ('INSERT', 'UPDATE') THEN
    INSERT INTO tally_deltas (kind, key, field, n)
      SELECT 'outbox', coalesce(campaign_id::text, ''), state, count(*) FROM after_rows GROUP BY 2, 3;
  END IF;
  IF TG_OP = 'UPDATE' THEN
    WITH handed AS (
      SELECT fresh.id, fresh.campaign_id, fresh.state, fresh.sent_at FROM after_rows AS fresh JOIN before_rows AS prior ON prior.id = fresh.id
      WHERE fresh.state IN ('sent', 'bounced') AND prior.state NOT IN ('sent', 'bounced')
    )
    INSERT INTO tally_deltas (kind, key, field, n)
      SELECT s.kind, s.key, f.field, count(*)
      FROM (SELECT id, state, 'mail' AS kind, '' AS key FROM handed
            UNION ALL SELECT id, state, 'mail-campaign', campaign_id::text FROM handed WHERE campaign_id IS NOT NULL
            UNION ALL SELECT h.id, h.state, 'mail-domain', r.domain FROM handed AS h JOIN outbox_recipients AS r ON r.id = h.id WHERE r.domain IS NOT NULL) AS s
        JOIN (VALUES ('sent'), ('refused')) AS f (field) ON f.field = 'sent' OR s.state = 'bounced'
      GROUP BY 1, 2, 3
      UNION ALL
      SELECT 'mail-day', to_char(coalesce(sent_at, now()) AT TIME ZONE 'UTC', 'YYYY-MM-DD'), 'sent', count(*) FROM handed WHERE state = 'sent' GROUP BY 2;
  END IF;
  RETURN NULL;
END $$;
CREATE TRIGGER outbox_tally_insert AFTER INSERT ON outbox REFERENCING NEW TABLE AS after_rows
  FOR EACH STATEMENT EXECUTE FUNCTION outbox_tally();
CREATE TRIGGER outbox_tally_update AFTER UPDATE ON outbox REFERENCING OLD TABLE AS before_rows NEW TABLE AS after_rows
  FOR EACH STATEMENT EXECUTE FUNCTION outbox_tally();
CREATE TRIGGER outbox_tally_delete AFTER DELETE ON outbox REFERENCING OLD TABLE AS before_rows
  FOR EACH STATEMENT EXECUTE FUNCTION outbox_tally();

-- A bounce or complaint: counted once per mail and kind, for every mail, its campaign and domain;
-- a hard bounce only for a mail the server took. Complaints by their day, whatever they are tied to.
CREATE FUNCTION mail_events_tally() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  field text := CASE NEW.type WHEN 'hard-bounce' THEN 'hard' WHEN 'soft-bounce' THEN 'soft' ELSE 'complained' END;
BEGIN
  IF NEW.outbox_id IS NULL THEN
    INSERT INTO tally_deltas (kind, key, field, n) VALUES ('mail-unattributed', '', field, 1);
  ELSIF EXISTS (SELECT 1 FROM outbox WHERE id = NEW.outbox_id AND state IN ('sent', 'bounced') AND (NEW.type <> 'hard-bounce' OR state = 'sent'))
    AND NOT EXISTS (SELECT 1 FROM mail_events AS earlier WHERE earlier.outbox_id = NEW.outbox_id AND earlier.type = NEW.type AND earlier.id <> NEW.id) THEN
    INSERT INTO tally_deltas (kind, key, field, n)
      SELECT 'mail', '', field, 1
      UNION ALL SELECT 'mail-campaign', campaign_id::text, field, 1 FROM outbox_recipients WHERE id = NEW.outbox_id AND campaign_id IS NOT NULL
      UNION ALL SELECT 'mail-domain', domain, field, 1 FROM outbox_recipients WHERE id = NEW.outbox_id AND domain IS NOT NULL;
  END IF;
  IF NEW.type = 'complaint' THEN
    INSERT INTO tally_deltas (kind, key, field, n) VALUES ('mail-day', to_char(NEW.at AT TIME ZONE 'UTC', 'YYYY-MM-DD'), 'complaints', 1);
  END IF;
  RETURN NULL;
END $$;
CREATE TRIGGER mail_events_tally AFTER INSERT ON mail_events FOR EACH ROW EXECUTE FUNCTION mail_events_tally();

-- Stopping e-mails counts for the campaign whose mail the sign-up had last before it, and for its
-- domain if it was ever mailed; starting them again takes that count back.
CREATE FUNCTION unsubscribe_tallies(w waitlist, sign integer) RETURNS void LANGUAGE sql AS $$
  INSERT INTO tally_deltas (kind, key, field, n)
  SELECT 'mail-campaign', campaign_id::text, 'unsubscribed', sign FROM (
    SELECT o.campaign_id FROM outbox AS o WHERE o.signup_id = w.id AND o.campaign_id IS NOT NULL AND o.state = 'sent' AND o.sent_at <= w.unsubscribed_at
    ORDER BY o.sent_at DESC, o.id DESC LIMIT 1) AS last
  UNION ALL
  SELECT 'mail-domain', lower(substr(w.email, strpos(w.email, '@') + 1)), 'unsubscribed', sign
  WHERE EXISTS (SELECT 1 FROM outbox AS o WHERE o.signup_id = w.id AND o.state = 'sent' AND o.sent_at <= w.unsubscribed_at)
$$;

INSERT INTO tallies (kind, key, field, n)
  SELECT kind, key, field, sum(n) FROM (
    SELECT 'mail-campaign' AS kind, (SELECT o.campaign_id::text FROM outbox AS o WHERE o.signup_id = w.id AND o.campaign_id IS NOT NULL
        AND o.state = 'sent' AND o.sent_at <= w.unsubscribed_at ORDER BY o.sent_at DESC, o.id DESC LIMIT 1) AS key, 'unsubscribed' AS field, 1 AS n
    FROM waitlist AS w WHERE w.unsubscribed_at IS NOT NULL
    UNION ALL
    SELECT 'mail-domain', lower(substr(w.email, strpos(w.email, '@') + 1)), 'unsubscribed', 1 FROM waitlist AS w
    WHERE w.unsubscribed_at IS NOT NULL AND EXISTS (SELECT 1 FROM outbox AS o WHERE o.signup_id = w.id AND o.state = 'sent' AND o.sent_at <= w.unsubscribed_at)
  ) AS u WHERE key IS NOT NULL GROUP BY 1, 2, 3;

CREATE FUNCTION waitlist_unsubscribe_tally() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF OLD.unsubscribed_at IS NOT DISTINCT FROM NEW.unsubscribed_at THEN RETURN NULL; END IF;
  IF OLD.unsubscribed_at IS NOT NULL THEN PERFORM unsubscribe_tallies(OLD, -1); END IF;
  IF NEW.unsubscribed_at IS NOT NULL THEN PERFORM unsubscribe_tallies(NEW, 1); END IF;
  RETURN NULL;
END $$;
CREATE TRIGGER waitlist_unsubscribe_tally AFTER UPDATE OF unsubscribed_at ON waitlist
  FOR EACH ROW EXECUTE FUNCTION waitlist_unsubscribe_tally();

-- ── A profile's breeds are its rows; the payload of sign-up events is written here once ──────
CREATE OR REPLACE FUNCTION webhook_signup(w waitlist) RETURNS jsonb LANGUAGE sql STABLE AS $$
  SELECT jsonb_build_object('id', w.id, 'role', w.role, 'country', w.country,
    'breeds', coalesce((SELECT jsonb_agg(name ORDER BY position) FROM signup_breeds WHERE signup_id = w.id), '[]'),
    'sides', coalesce((SELECT jsonb_agg(jsonb_build_object('breed', breed, 'side', side) ORDER BY position) FROM signup_breeds WHERE signup_id = w.id), '[]'),
    'locale', w.locale, 'source', coalesce(w.utm_source, w.referrer))
$$;

-- A profile saved: the store moves this when what the payload says of it changed (its breeds are
-- rows of another table, which the sign-up's own columns cannot show).
ALTER TABLE waitlist ADD COLUMN profile_changed_at timestamptz;

CREATE OR REPLACE FUNCTION waitlist_webhooks() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    PERFORM webhook_emit('signup.created', NEW.id, webhook_signup(NEW));
    RETURN NEW;
  END IF;
  IF TG_OP = 'DELETE' THEN
    -- Before the row goes, while its breeds are still there to be named.
    PERFORM webhook_emit('signup.deleted', OLD.id, webhook_signup(OLD));
    RETURN OLD;
  END IF;
  IF OLD.confirmed_at IS NULL AND NEW.confirmed_at IS NOT NULL THEN
    PERFORM webhook_emit('signup.confirmed', NEW.id, webhook_signup(NEW));
  END IF;
  IF OLD.unsubscribed_at IS NULL AND NEW.unsubscribed_at IS NOT NULL THEN
    PERFORM webhook_emit('signup.unsubscribed', NEW.id, webhook_signup(NEW));
  END IF;
  IF (OLD.role, OLD.country, OLD.locale, OLD.profile_changed_at) IS DISTINCT FROM (NEW.role, NEW.country, NEW.locale, NEW.profile_changed_at) THEN
    PERFORM webhook_emit('signup.profile_updated', NEW.id, webhook_signup(NEW));
  END IF;
  IF OLD.invite_credited_at IS NULL AND NEW.invite_credited_at IS NOT NULL THEN
    PERFORM webhook_emit('invite.confirmed', NEW.id, webhook_signup(NEW) || jsonb_build_object('inviter', NEW.invited_by));
  END IF;
  RETURN NEW;
END $$;

DROP TRIGGER waitlist_webhooks ON waitlist;
CREATE TRIGGER waitlist_webhooks AFTER INSERT OR UPDATE OF confirmed_at, unsubscribed_at, role, country, locale, profile_changed_at, invite_credited_at
  ON waitlist FOR EACH ROW EXECUTE FUNCTION waitlist_webhooks();
CREATE TRIGGER waitlist_webhooks_deleted BEFORE DELETE ON waitlist FOR EACH ROW EXECUTE FUNCTION waitlist_webhooks();

ALTER TABLE waitlist DROP COLUMN breeds, DROP COLUMN breed_sides;
