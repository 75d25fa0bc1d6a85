-- The demo account is shared by anonymous visitors: it never owns its agency (and so never reads the
-- agency's activity log, with the other visitors' sign-ins).
UPDATE users SET is_owner = false WHERE is_demo_user;
