CREATE TABLE "report_deliveries" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"analysis_id" uuid NOT NULL,
	"addendum_id" uuid,
	"destination" text NOT NULL,
	"status" text DEFAULT 'pending' NOT NULL,
	"attempts" integer DEFAULT 0 NOT NULL,
	"last_error" text,
	"series_instance_uid" text,
	"sop_instance_uid" text,
	"delivered_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "report_deliveries" ADD CONSTRAINT "report_deliveries_analysis_id_reports_analysis_id_fk" FOREIGN KEY ("analysis_id") REFERENCES "public"."reports"("analysis_id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "report_deliveries" ADD CONSTRAINT "report_deliveries_addendum_id_report_addenda_id_fk" FOREIGN KEY ("addendum_id") REFERENCES "public"."report_addenda"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "report_deliveries_analysis_idx" ON "report_deliveries" USING btree ("analysis_id","created_at");--> statement-breakpoint
CREATE INDEX "report_deliveries_pending_idx" ON "report_deliveries" USING btree ("status");