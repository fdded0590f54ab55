CREATE TABLE "model_registry_events" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"action" text NOT NULL,
	"model_id" text NOT NULL,
	"from_model_id" text,
	"to_model_id" text,
	"comparison" jsonb,
	"confirmed" boolean DEFAULT false NOT NULL,
	"actor_user_id" uuid,
	"actor_name" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "shadow_outputs" (
	"analysis_id" uuid NOT NULL,
	"model_id" text NOT NULL,
	"model_version" text NOT NULL,
	"probabilities" jsonb,
	"thresholds" jsonb NOT NULL,
	"inference_ms" double precision NOT NULL,
	"rss_mb" double precision NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "shadow_outputs_analysis_id_model_id_pk" PRIMARY KEY("analysis_id","model_id")
);
--> statement-breakpoint
ALTER TABLE "analyses" ADD COLUMN "model_id" text;--> statement-breakpoint
ALTER TABLE "model_registry_events" ADD CONSTRAINT "model_registry_events_actor_user_id_users_id_fk" FOREIGN KEY ("actor_user_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "shadow_outputs" ADD CONSTRAINT "shadow_outputs_analysis_id_analyses_id_fk" FOREIGN KEY ("analysis_id") REFERENCES "public"."analyses"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "model_registry_events_created_idx" ON "model_registry_events" USING btree ("created_at");--> statement-breakpoint
CREATE INDEX "shadow_outputs_model_idx" ON "shadow_outputs" USING btree ("model_id");