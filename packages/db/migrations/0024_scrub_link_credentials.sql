-- Agent-tool links stored before their config refused credentials and destinations may still hold
-- them in clear. Remove from every link's config exactly what `usableLinkConfig` strips when it is read
-- and run: keys whose name matches CREDENTIAL_NAME at any depth (inside objects and arrays), and keys
-- matching DESTINATION_NAME at the top level.
-- These rules (the two patterns and how a name is normalised) must match packages/contracts/src/tools.ts.
-- The helpers live in pg_temp (this session only) and are dropped at the end.

-- A name as the patterns read it: lower case, without `-` and `_`. JavaScript's toLowerCase lowers
-- every ASCII letter whatever the locale, and of the other characters only the Kelvin sign (U+212A)
-- becomes one (`k`); lower() alone would follow the database's locale (a Turkish one lowers `I` to `ı`).
-- The Kelvin sign can only be stored in a UTF8 database, and chr(8490) fails in any other.
CREATE FUNCTION pg_temp.link_config_name(key text) RETURNS text LANGUAGE plpgsql AS $fn$
BEGIN
  IF current_setting('server_encoding') = 'UTF8' THEN
    key := replace(key, chr(8490), 'k');
  END IF;
  RETURN translate(lower(key COLLATE "C"), '-_', '');
END
$fn$;
--> statement-breakpoint
CREATE FUNCTION pg_temp.usable_link_config(value jsonb, top boolean) RETURNS jsonb LANGUAGE sql AS $fn$
  SELECT CASE jsonb_typeof(value)
    WHEN 'array' THEN (
      SELECT coalesce(jsonb_agg(pg_temp.usable_link_config(item, false) ORDER BY ord), '[]'::jsonb)
      FROM jsonb_array_elements(value) WITH ORDINALITY AS items(item, ord)
    )
    WHEN 'object' THEN (
      SELECT coalesce(jsonb_object_agg(key, pg_temp.usable_link_config(item, false)), '{}'::jsonb)
      FROM jsonb_each(value) AS entries(key, item)
      CROSS JOIN LATERAL pg_temp.link_config_name(key) AS name
      -- CREDENTIAL_NAME, at any depth
      WHERE name !~ 'password|passwd|passphrase|secret|(?:token|apikey|accesskey|privatekey|authorization|credentials?|connectionstring|databaseurl)$|^(?:key|pwd|pass|auth)$'
        -- DESTINATION_NAME, at the top level only
        AND NOT (top AND name ~ '^(?:baseurl|url|uri|endpoint|host|hostname|port|headers?|authheader)$')
    )
    ELSE value
  END
$fn$;
--> statement-breakpoint
-- Only the links that change are written.
UPDATE "agent_tools" SET "config" = pg_temp.usable_link_config("config", true)
WHERE "config" <> pg_temp.usable_link_config("config", true);
--> statement-breakpoint
DROP FUNCTION pg_temp.usable_link_config(jsonb, boolean);
--> statement-breakpoint
DROP FUNCTION pg_temp.link_config_name(text);
