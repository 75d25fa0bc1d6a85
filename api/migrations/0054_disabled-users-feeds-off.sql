-- Disabling an account now turns its calendar feed off, so enabling it again does not bring the old
-- address back. Accounts disabled before that still have theirs: they go the same way.
DELETE FROM calendar_feeds WHERE user_id IN (SELECT id FROM users WHERE disabled_at IS NOT NULL);
