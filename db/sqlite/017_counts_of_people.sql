-- The figures the team and the public read most, kept as tallies (docs/decisions/021-tallies.md):
-- at a million sign-ups counting them from the rows held SQLite's one thread for seconds (the
-- demand map 15.6 s, the stats 3.1 s, /api/launch's countries 0.8 s: npm run bench:scale).
--
-- kind 'people', key `role|country|locale|platform|status` ('' where not said), field 'n': every
-- sign-up, by what it said and where it stands: status `waiting` (confirmed, subscribed),
-- `unconfirmed`, `stopped` (confirmed, then stopped e-mails) or `stopped-unconfirmed`. The demand
-- map, the launch meters, the landing page's total and the visitor's country meter add them up.
-- kind 'signups-day' (key: the UTC day it came), 'signups-source' (key: utm_source, else the
-- referring host, '' for none), field 'signups': the stats. A deleted sign-up leaves them all.

CREATE TRIGGER waitlist_tally_insert AFTER INSERT ON waitlist
BEGIN
  INSERT INTO tallies (kind, key, field, n) VALUES
    ('people', coalesce(NEW.role, '') || '|' || coalesce(NEW.country, '') || '|' || NEW.locale || '|' || coalesce(NEW.platform, '') || '|' ||
      CASE WHEN NEW.unsubscribed_at IS NOT NULL THEN CASE WHEN NEW.confirmed_at IS NOT NULL THEN 'stopped' ELSE 'stopped-unconfirmed' END
        WHEN NEW.confirmed_at IS NOT NULL THEN 'waiting' ELSE 'unconfirmed' END, 'n', 1),
    ('signups-day', substr(NEW.created_at, 1, 10), 'signups', 1),
    ('signups-source', coalesce(NEW.utm_source, NEW.referrer, ''), 'signups', 1)
  ON CONFLICT (kind, key, field) DO UPDATE SET n = n + 1;
END;

CREATE TRIGGER waitlist_tally_delete AFTER DELETE ON waitlist
BEGIN
  UPDATE tallies SET n = n - 1 WHERE field IN ('n', 'signups') AND (kind, key) IN (VALUES
    ('people', coalesce(OLD.role, '') || '|' || coalesce(OLD.country, '') || '|' || OLD.locale || '|' || coalesce(OLD.platform, '') || '|' ||
      CASE WHEN OLD.unsubscribed_at IS NOT NULL THEN CASE WHEN OLD.confirmed_at IS NOT NULL THEN 'stopped' ELSE 'stopped-unconfirmed' END
        WHEN OLD.confirmed_at IS NOT NULL THEN 'waiting' ELSE 'unconfirmed' END),
    ('signups-day', substr(OLD.created_at, 1, 10)),
    ('signups-source', coalesce(OLD.utm_source, OLD.referrer, '')));
END;

CREATE TRIGGER waitlist_tally_update AFTER UPDATE OF role, country, locale, platform, confirmed_at, unsubscribed_at ON waitlist
WHEN OLD.role IS NOT NEW.role OR OLD.country IS NOT NEW.country OR OLD.locale IS NOT NEW.locale OR OLD.platform IS NOT NEW.platform
  OR (OLD.confirmed_at IS NULL) IS NOT (NEW.confirmed_at IS NULL) OR (OLD.unsubscribed_at IS NULL) IS NOT (NEW.unsubscribed_at IS NULL)
BEGIN
  UPDATE tallies SET n = n - 1 WHERE kind = 'people' AND field = 'n' AND key =
    coalesce(OLD.role, '') || '|' || coalesce(OLD.country, '') || '|' || OLD.locale || '|' || coalesce(OLD.platform, '') || '|' ||
      CASE WHEN OLD.unsubscribed_at IS NOT NULL THEN CASE WHEN OLD.confirmed_at IS NOT NULL THEN 'stopped' ELSE 'stopped-unconfirmed' END
        WHEN OLD.confirmed_at IS NOT NULL THEN 'waiting' ELSE 'unconfirmed' END;
  INSERT INTO tallies (kind, key, field, n) VALUES
    ('people', coalesce(NEW.role, '') || '|' || coalesce(NEW.country, '') || '|' || NEW.locale || '|' || coalesce(NEW.platform, '') || '|' ||
      CASE WHEN NEW.unsubscribed_at IS NOT NULL THEN CASE WHEN NEW.confirmed_at IS NOT NULL THEN 'stopped' ELSE 'stopped-unconfirmed' END
        WHEN NEW.confirmed_at IS NOT NULL THEN 'waiting' ELSE 'unconfirmed' END, 'n', 1)
  ON CONFLICT (kind, key, field) DO UPDATE SET n = n + 1;
END;

-- A sign-up's day or source corrected (an import, a fix by hand) moves its count.
CREATE TRIGGER waitlist_tally_day_source AFTER UPDATE OF created_at, utm_source, referrer ON waitlist
WHEN substr(OLD.created_at, 1, 10) IS NOT substr(NEW.created_at, 1, 10)
  OR coalesce(OLD.utm_source, OLD.referrer, '') IS NOT coalesce(NEW.utm_source, NEW.referrer, '')
BEGIN
  UPDATE tallies SET n = n - 1 WHERE field = 'signups' AND (kind, key) IN (VALUES
    ('signups-day', substr(OLD.created_at, 1, 10)), ('signups-source', coalesce(OLD.utm_source, OLD.referrer, '')));
  INSERT INTO tallies (kind, key, field, n) VALUES
    ('signups-day', substr(NEW.created_at, 1, 10), 'signups', 1),
    ('signups-source', coalesce(NEW.utm_source, NEW.referrer, ''), 'signups', 1)
  ON CONFLICT (kind, key, field) DO UPDATE SET n = n + 1;
END;

-- Filled once from the rows.
INSERT INTO tallies (kind, key, field, n)
  SELECT 'people', coalesce(role, '') || '|' || coalesce(country, '') || '|' || locale || '|' || coalesce(platform, '') || '|' ||
      CASE WHEN unsubscribed_at IS NOT NULL THEN CASE WHEN confirmed_at IS NOT NULL THEN 'stopped' ELSE 'stopped-unconfirmed' END
        WHEN confirmed_at IS NOT NULL THEN 'waiting' ELSE 'unconfirmed' END, 'n', count(*)
  FROM waitlist GROUP BY 2;
INSERT INTO tallies (kind, key, field, n) SELECT 'signups-day', substr(created_at, 1, 10), 'signups', count(*) FROM waitlist GROUP BY 2;
INSERT INTO tallies (kind, key, field, n) SELECT 'signups-source', coalesce(utm_source, referrer, ''), 'signups', count(*) FROM waitlist GROUP BY 2;

-- The names the catalogue missed are listed by key with a spelling of each: read from the index alone.
DROP INDEX signup_breeds_unmatched;
CREATE INDEX signup_breeds_unmatched ON signup_breeds (name_key, name) WHERE breed IS NULL;
-- The suppression list, the newest first, a page at a time.
CREATE INDEX suppressions_at ON suppressions (at, email_hash);
