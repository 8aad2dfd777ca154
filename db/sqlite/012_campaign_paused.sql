-- A campaign that stops is a webhook event (`campaign.paused`), written with the change: by its
-- deliverability (its bounces or complaints, `reason` saying which) or by an operator (no reason).
CREATE TRIGGER webhook_campaign_paused AFTER UPDATE OF status ON campaigns
WHEN NEW.status = 'paused' AND OLD.status IS NOT 'paused'
  AND EXISTS (SELECT 1 FROM webhook_endpoints, json_each(webhook_endpoints.events) WHERE enabled = 1 AND json_each.value = 'campaign.paused')
BEGIN
  INSERT INTO webhook_events (message_id, type, signup_id, data) VALUES ('msg_' || lower(hex(randomblob(16))), 'campaign.paused', NULL,
    json_object('id', NEW.id, 'recipients', NEW.recipients, 'reason', NEW.paused_reason,
      'by', CASE WHEN NEW.paused_reason IS NULL THEN 'operator' ELSE 'deliverability' END));
END;
