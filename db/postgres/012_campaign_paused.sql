-- A campaign that stops is a webhook event (`campaign.paused`), written with the change: by its
-- deliverability (its bounces or complaints, `reason` saying which) or by an operator (no reason).
CREATE FUNCTION campaign_paused_webhook() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM webhook_emit('campaign.paused', NULL, jsonb_build_object('id', NEW.id, 'recipients', NEW.recipients,
    'reason', NEW.paused_reason, 'by', CASE WHEN NEW.paused_reason IS NULL THEN 'operator' ELSE 'deliverability' END));
  RETURN NEW;
END $$;

CREATE TRIGGER campaign_paused_webhook AFTER UPDATE OF status ON campaigns
  FOR EACH ROW WHEN (NEW.status = 'paused' AND OLD.status IS DISTINCT FROM 'paused') EXECUTE FUNCTION campaign_paused_webhook();
