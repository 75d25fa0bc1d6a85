CREATE TABLE "calendar_day_totals" (
	"tenant_id" uuid NOT NULL,
	"kind" text NOT NULL,
	"day" date NOT NULL,
	"records" integer NOT NULL,
	"amount" numeric NOT NULL,
	CONSTRAINT "calendar_day_totals_pkey" PRIMARY KEY("tenant_id","kind","day")
);
