-- The sessions list's "Last active": a session's latest request, written at most every five minutes.
ALTER TABLE "refresh_tokens" ADD COLUMN "last_active_at" timestamp with time zone;--> statement-breakpoint
-- Whether an invitation's email went out, so the pending list can say when the inviter must pass the
-- link on themselves. Invitations sent before this are taken as emailed.
ALTER TABLE "team_invitations" ADD COLUMN "email_sent" boolean DEFAULT true NOT NULL;
