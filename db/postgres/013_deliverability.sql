-- The deliverability view (docs/decisions/020-deliverability.md). Counting every mail's recipient
-- domain from the rows grows with every mail ever sent: the mails handed to the mail server are
-- counted as they are, per recipient domain and per UTC day, by a trigger on the outbox's state
-- (once per statement: a batch of marks is one upsert per domain, taken in the domains' order so
-- that two instances' batches never deadlock). A deleted sign-up's mails stay counted: a domain
-- and a day name no one.
CREATE TABLE mail_domain_counts (
  domain  text PRIMARY KEY,
  -- Mails to sign-ups at the domain handed to the mail server (state sent or bounced)…
  sent    bigint NOT NULL DEFAULT 0,
  -- …and of them, those it refused at once (bounced).
  refused bigint NOT NULL DEFAULT 0
);

CREATE TABLE mail_day_counts (
  -- A UTC day: every kind of mail the mail server accepted (state sent) that day.
  day  date PRIMARY KEY,
  sent bigint NOT NULL DEFAULT 0
);

INSERT INTO mail_domain_counts (domain, sent, refused)
  SELECT lower(substr(waitlist.email, strpos(waitlist.email, '@') + 1)), count(*), count(*) FILTER (WHERE outbox.state = 'bounced')
  FROM outbox JOIN waitlist ON waitlist.id = outbox.signup_id WHERE outbox.state IN ('sent', 'bounced') GROUP BY 1;
INSERT INTO mail_day_counts (day, sent)
  SELECT (sent_at AT TIME ZONE 'UTC')::date, count(*) FROM outbox WHERE state = 'sent' AND sent_at IS NOT NULL GROUP BY 1;

-- Each campaign's mails handed to the mail server, and of them refused at once (counting them from
-- the rows read every campaign's outbox index: 1.2 s at four campaigns to 1,000,000).
CREATE TABLE mail_campaign_counts (
  campaign_id bigint PRIMARY KEY,
  sent        bigint NOT NULL DEFAULT 0,
  refused     bigint NOT NULL DEFAULT 0
);

INSERT INTO mail_campaign_counts (campaign_id, sent, refused)
  SELECT campaign_id, count(*), count(*) FILTER (WHERE state = 'bounced') FROM outbox
  WHERE campaign_id IS NOT NULL AND state IN ('sent', 'bounced') GROUP BY 1;

CREATE FUNCTION outbox_counted() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO mail_domain_counts AS counts (domain, sent, refused)
    SELECT lower(substr(waitlist.email, strpos(waitlist.email, '@') + 1)), count(*), count(*) FILTER (WHERE fresh.state = 'bounced')
    FROM after_rows AS fresh JOIN before_rows AS prior ON prior.id = fresh.id JOIN waitlist ON waitlist.id = fresh.signup_id
    WHERE fresh.state IN ('sent', 'bounced') AND prior.state NOT IN ('sent', 'bounced')
    GROUP BY 1 ORDER BY 1
  ON CONFLICT (domain) DO UPDATE SET sent = counts.sent + excluded.sent, refused = counts.refused + excluded.refused;
  INSERT INTO mail_day_counts AS counts (day, sent)
    SELECT (coalesce(fresh.sent_at, now()) AT TIME ZONE 'UTC')::date, count(*)
    FROM after_rows AS fresh JOIN before_rows AS prior ON prior.id = fresh.id
    WHERE fresh.state = 'sent' AND prior.state NOT IN ('sent', 'bounced')
    GROUP BY 1 ORDER BY 1
  ON CONFLICT (day) DO UPDATE SET sent = counts.sent + excluded.sent;
  INSERT INTO mail_campaign_counts AS counts (campaign_id, sent, refused)
    SELECT fresh.campaign_id, count(*), count(*) FILTER (WHERE fresh.state = 'bounced')
    FROM after_rows AS fresh JOIN before_rows AS prior ON prior.id = fresh.id
    WHERE fresh.campaign_id IS NOT NULL AND fresh.state IN ('sent', 'bounced') AND prior.state NOT IN ('sent', 'bounced')
    GROUP BY 1 ORDER BY 1
  ON CONFLICT (campaign_id) DO UPDATE SET sent = counts.sent + excluded.sent, refused = counts.refused + excluded.refused;
  RETURN NULL;
END $$;
CREATE TRIGGER outbox_counted AFTER UPDATE ON outbox
  REFERENCING OLD TABLE AS before_rows NEW TABLE AS after_rows
  FOR EACH STATEMENT EXECUTE FUNCTION outbox_counted();

-- Complaints per UTC day, kept apart from the events: a complainer who deletes their sign-up takes
-- their events along, but the complaint still weighs on our reputation (the providers count it).
CREATE TABLE mail_complaint_days (
  day        date PRIMARY KEY,
  complaints bigint NOT NULL DEFAULT 0
);

INSERT INTO mail_complaint_days (day, complaints)
  SELECT (at AT TIME ZONE 'UTC')::date, count(*) FROM mail_events WHERE type = 'complaint' GROUP BY 1;

CREATE FUNCTION mail_complaint_counted() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO mail_complaint_days AS counts (day, complaints) VALUES ((NEW.at AT TIME ZONE 'UTC')::date, 1)
    ON CONFLICT (day) DO UPDATE SET complaints = counts.complaints + 1;
  RETURN NULL;
END $$;
CREATE TRIGGER mail_complaint_counted AFTER INSERT ON mail_events
  FOR EACH ROW WHEN (NEW.type = 'complaint') EXECUTE FUNCTION mail_complaint_counted();

-- The few sign-ups who stopped e-mails (the unsubscribed figures start from them, not from every mail).
CREATE INDEX waitlist_unsubscribed ON waitlist (unsubscribed_at) WHERE unsubscribed_at IS NOT NULL;
