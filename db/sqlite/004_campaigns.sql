-- Campaigns (docs/decisions/013-campaigns.md): a subject and a message for a segment. Sending one
-- queues an outbox row per recipient, in one transaction; the unique index makes a repeated or
-- doubled send queue nobody twice. "finished" is not stored: it is a campaign with none waiting.
CREATE TABLE campaigns (
  id         INTEGER PRIMARY KEY AUTOINCREMENT,
  subject    TEXT NOT NULL,
  markdown   TEXT NOT NULL,
  -- The segment as JSON (contract/campaigns.ts, Segment).
  segment    TEXT NOT NULL CONSTRAINT campaigns_segment CHECK (json_valid(segment)),
  status     TEXT NOT NULL DEFAULT 'draft' CONSTRAINT campaigns_status CHECK (status IN ('draft', 'sending', 'paused')),
  recipients INTEGER NOT NULL DEFAULT 0,
  created_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')),
  sent_at    TEXT
);

CREATE UNIQUE INDEX outbox_campaign_recipient ON outbox (campaign_id, signup_id) WHERE campaign_id IS NOT NULL;
CREATE INDEX outbox_campaign_state ON outbox (campaign_id, state) WHERE campaign_id IS NOT NULL;
