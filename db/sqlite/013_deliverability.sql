-- The deliverability view (docs/decisions/020-deliverability.md). Counting every mail's recipient
-- domain from the rows took 0.3 s at 100,000 sign-ups (3 s at a million, the event loop stalled):
-- the mails handed to the mail server are counted as they are, per recipient domain and per UTC
-- day, by a trigger on the outbox's state. A deleted sign-up's mails stay counted: a domain and a
-- day name no one.
CREATE TABLE mail_domain_counts (
  domain  TEXT PRIMARY KEY,
  -- Mails to sign-ups at the domain handed to the mail server (state sent or bounced)…
  sent    INTEGER NOT NULL DEFAULT 0,
  -- …and of them, those it refused at once (bounced).
  refused INTEGER NOT NULL DEFAULT 0
) WITHOUT ROWID;

CREATE TABLE mail_day_counts (
  -- A UTC day (YYYY-MM-DD): every kind of mail the mail server accepted (state sent) that day.
  day  TEXT PRIMARY KEY,
  sent INTEGER NOT NULL DEFAULT 0
) WITHOUT ROWID;

INSERT INTO mail_domain_counts (domain, sent, refused)
  SELECT lower(substr(waitlist.email, instr(waitlist.email, '@') + 1)), count(*), sum(outbox.state = 'bounced')
  FROM outbox JOIN waitlist ON waitlist.id = outbox.signup_id WHERE outbox.state IN ('sent', 'bounced') GROUP BY 1;
INSERT INTO mail_day_counts (day, sent)
  SELECT substr(sent_at, 1, 10), count(*) FROM outbox WHERE state = 'sent' AND sent_at IS NOT NULL GROUP BY 1;

-- Each campaign's mails handed to the mail server, and of them refused at once (counting them from
-- the rows read every campaign's outbox index: 0.55 s at four campaigns to 1,000,000).
CREATE TABLE mail_campaign_counts (
  campaign_id INTEGER PRIMARY KEY,
  sent        INTEGER NOT NULL DEFAULT 0,
  refused     INTEGER NOT NULL DEFAULT 0
);

INSERT INTO mail_campaign_counts (campaign_id, sent, refused)
  SELECT campaign_id, count(*), sum(state = 'bounced') FROM outbox
  WHERE campaign_id IS NOT NULL AND state IN ('sent', 'bounced') GROUP BY 1;

CREATE TRIGGER outbox_counted AFTER UPDATE OF state ON outbox
WHEN NEW.state IN ('sent', 'bounced') AND OLD.state NOT IN ('sent', 'bounced')
BEGIN
  INSERT INTO mail_domain_counts (domain, sent, refused)
    SELECT lower(substr(email, instr(email, '@') + 1)), 1, NEW.state = 'bounced' FROM waitlist WHERE id = NEW.signup_id
    ON CONFLICT (domain) DO UPDATE SET sent = sent + 1, refused = refused + excluded.refused;
  INSERT INTO mail_day_counts (day, sent)
    SELECT substr(coalesce(NEW.sent_at, strftime('%Y-%m-%dT%H:%M:%fZ', 'now')), 1, 10), 1 WHERE NEW.state = 'sent'
    ON CONFLICT (day) DO UPDATE SET sent = sent + 1;
  INSERT INTO mail_campaign_counts (campaign_id, sent, refused)
    SELECT NEW.campaign_id, 1, NEW.state = 'bounced' WHERE NEW.campaign_id IS NOT NULL
    ON CONFLICT (campaign_id) DO UPDATE SET sent = sent + 1, refused = refused + excluded.refused;
END;

-- Complaints per UTC day, kept apart from the events: a complainer who deletes their sign-up takes
-- their events along, but the complaint still weighs on our reputation (the providers count it).
CREATE TABLE mail_complaint_days (
  day        TEXT PRIMARY KEY,
  complaints INTEGER NOT NULL DEFAULT 0
) WITHOUT ROWID;

INSERT INTO mail_complaint_days (day, complaints)
  SELECT substr(at, 1, 10), count(*) FROM mail_events WHERE type = 'complaint' GROUP BY 1;

CREATE TRIGGER mail_complaint_counted AFTER INSERT ON mail_events
WHEN NEW.type = 'complaint'
BEGIN
  INSERT INTO mail_complaint_days (day, complaints) VALUES (substr(NEW.at, 1, 10), 1)
    ON CONFLICT (day) DO UPDATE SET complaints = complaints + 1;
END;

-- The few sign-ups who stopped e-mails (the unsubscribed figures start from them, not from every mail).
CREATE INDEX waitlist_unsubscribed ON waitlist (unsubscribed_at) WHERE unsubscribed_at IS NOT NULL;
