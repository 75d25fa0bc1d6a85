CREATE TABLE "scheduled_runs" (
	"job" text NOT NULL,
	"run_on" date NOT NULL,
	"claimed_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "scheduled_runs_job_run_on_pk" PRIMARY KEY("job","run_on")
);
