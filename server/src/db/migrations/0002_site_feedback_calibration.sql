CREATE TABLE "finding_feedback" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"user_id" uuid NOT NULL,
	"chat_id" uuid NOT NULL,
	"analysis_id" uuid NOT NULL,
	"finding" text NOT NULL,
	"verdict" text NOT NULL,
	"reading" text NOT NULL,
	"note" text,
	"model_version" text NOT NULL,
	"model_probability" double precision NOT NULL,
	"model_call" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "site_calibrations" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"status" text DEFAULT 'proposed' NOT NULL,
	"source" text NOT NULL,
	"method" text NOT NULL,
	"model_sha256" text NOT NULL,
	"model_version" text NOT NULL,
	"findings" jsonb NOT NULL,
	"created_by" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"applied_at" timestamp with time zone,
	"reverted_at" timestamp with time zone
);
--> statement-breakpoint
ALTER TABLE "finding_feedback" ADD CONSTRAINT "finding_feedback_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "finding_feedback" ADD CONSTRAINT "finding_feedback_chat_id_chats_id_fk" FOREIGN KEY ("chat_id") REFERENCES "public"."chats"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "finding_feedback" ADD CONSTRAINT "finding_feedback_analysis_id_analyses_id_fk" FOREIGN KEY ("analysis_id") REFERENCES "public"."analyses"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "site_calibrations" ADD CONSTRAINT "site_calibrations_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "finding_feedback_author_uq" ON "finding_feedback" USING btree ("analysis_id","finding","user_id");--> statement-breakpoint
CREATE INDEX "finding_feedback_chat_idx" ON "finding_feedback" USING btree ("chat_id");--> statement-breakpoint
CREATE INDEX "finding_feedback_created_idx" ON "finding_feedback" USING btree ("created_at");--> statement-breakpoint
CREATE INDEX "site_calibrations_status_idx" ON "site_calibrations" USING btree ("status");--> statement-breakpoint
CREATE UNIQUE INDEX "site_calibrations_applied_uq" ON "site_calibrations" USING btree ("status") WHERE "site_calibrations"."status" = 'applied';