-- Campaigns (docs/decisions/013-campaigns.md): a subject and a message for a segment. Sending one
-- queues an outbox row per recipient, in one transaction; the unique index makes a repeated or
-- doubled send queue nobody twice. "finished" is not stored: it is a campaign with none waiting.
CREATE TABLE campaigns (
  id         bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  subject    text NOT NULL,
  markdown   text NOT NULL,
  -- The segment (contract/campaigns.ts, Segment).
  segment    jsonb NOT NULL,
  status     text NOT NULL DEFAULT 'draft' CONSTRAINT campaigns_status CHECK (status IN ('draft', 'sending', 'paused')),
  recipients integer NOT NULL DEFAULT 0,
  created_at timestamptz NOT NULL DEFAULT now(),
  sent_at    timestamptz
);

ALTER TABLE outbox ADD CONSTRAINT outbox_campaign FOREIGN KEY (campaign_id) REFERENCES campaigns (id);
CREATE UNIQUE INDEX outbox_campaign_recipient ON outbox (campaign_id, signup_id) WHERE campaign_id IS NOT NULL;
CREATE INDEX outbox_campaign_state ON outbox (campaign_id, state) WHERE campaign_id IS NOT NULL;
