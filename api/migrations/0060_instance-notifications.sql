-- Every instance keeps the revoked sign-ins and the platform settings in memory. These triggers tell
-- all of them when either changes, through NOTIFY: sent in the changing transaction, delivered when
-- it commits, whichever code path (or admin at a psql prompt) made the change.
CREATE FUNCTION notify_revoked_sessions() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  family_ids text[];
BEGIN
  SELECT array_agg(DISTINCT after_rows.family_id::text) INTO family_ids
    FROM after_rows JOIN before_rows ON before_rows.id = after_rows.id
    WHERE before_rows.revoked_at IS NULL AND after_rows.revoked_at IS NOT NULL;
  IF family_ids IS NULL THEN
    RETURN NULL;
  END IF;
  -- A payload holds under 8000 bytes: 200 ids of 37 characters each fit.
  FOR chunk IN 0 .. (array_length(family_ids, 1) - 1) / 200 LOOP
    PERFORM pg_notify('coverdesk_revoked_sessions', array_to_string(family_ids[chunk * 200 + 1 : chunk * 200 + 200], ','));
  END LOOP;
  RETURN NULL;
END;
$$;
--> statement-breakpoint
CREATE TRIGGER refresh_tokens_notify_revoked AFTER UPDATE ON refresh_tokens
  REFERENCING OLD TABLE AS before_rows NEW TABLE AS after_rows
  FOR EACH STATEMENT EXECUTE FUNCTION notify_revoked_sessions();
--> statement-breakpoint
CREATE FUNCTION notify_platform_settings() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'DELETE' THEN
    PERFORM pg_notify('coverdesk_platform_settings', OLD.key);
  ELSE
    PERFORM pg_notify('coverdesk_platform_settings', NEW.key);
  END IF;
  RETURN NULL;
END;
$$;
--> statement-breakpoint
CREATE TRIGGER platform_settings_notify AFTER INSERT OR UPDATE OR DELETE ON platform_settings
  FOR EACH ROW EXECUTE FUNCTION notify_platform_settings();
