CREATE TABLE "report_addenda" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"analysis_id" uuid NOT NULL,
	"text" text NOT NULL,
	"signed_by" uuid,
	"signed_by_name" text NOT NULL,
	"signed_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "reports" (
	"analysis_id" uuid PRIMARY KEY NOT NULL,
	"status" text DEFAULT 'draft' NOT NULL,
	"examination" text NOT NULL,
	"comparison" text NOT NULL,
	"findings" text NOT NULL,
	"impression" text NOT NULL,
	"draft_impression" text NOT NULL,
	"drafted_by" text NOT NULL,
	"signed_by" uuid,
	"signed_by_name" text,
	"signed_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "report_addenda" ADD CONSTRAINT "report_addenda_analysis_id_reports_analysis_id_fk" FOREIGN KEY ("analysis_id") REFERENCES "public"."reports"("analysis_id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "report_addenda" ADD CONSTRAINT "report_addenda_signed_by_users_id_fk" FOREIGN KEY ("signed_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "reports" ADD CONSTRAINT "reports_analysis_id_analyses_id_fk" FOREIGN KEY ("analysis_id") REFERENCES "public"."analyses"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "reports" ADD CONSTRAINT "reports_signed_by_users_id_fk" FOREIGN KEY ("signed_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "report_addenda_analysis_idx" ON "report_addenda" USING btree ("analysis_id","signed_at");