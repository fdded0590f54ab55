-- Issue 39 S1/S3: a team's slug (what OIDC_TEAM_MAP names) is stored and unique. Existing teams
-- get it from their name exactly as teamSlug() computes it (NFKD, accents dropped, lower-case,
-- runs of other characters one "-", none at either end).
ALTER TABLE "teams" ADD COLUMN "slug" text;--> statement-breakpoint
UPDATE "teams" SET "slug" = trim(both '-' from regexp_replace(lower(regexp_replace(normalize("name", NFKD), '[\u0300-\u036f]', '', 'g')), '[^a-z0-9]+', '-', 'g'));--> statement-breakpoint
-- Teams that share a slug (the collision of S1) keep it for the oldest; the others, and a name
-- with no letter or digit, get their id's first 8 hex digits after it, which the map never names.
UPDATE "teams" SET "slug" = (CASE WHEN "teams"."slug" = '' THEN 'team' ELSE "teams"."slug" END) || '-' || left(replace("teams"."id"::text, '-', ''), 8)
FROM (SELECT "id", row_number() OVER (PARTITION BY "slug" ORDER BY "created_at", "id") AS "n" FROM "teams") AS "d"
WHERE "d"."id" = "teams"."id" AND ("d"."n" > 1 OR "teams"."slug" = '');--> statement-breakpoint
ALTER TABLE "teams" ALTER COLUMN "slug" SET NOT NULL;--> statement-breakpoint
CREATE UNIQUE INDEX "teams_slug_uq" ON "teams" USING btree ("slug");
