-- pg-boss 12 cannot migrate the schema pg-boss 10 installed (its migrations start from pg-boss 11's,
-- and pg-boss 11 had none from 10), so that schema goes and pg-boss 12 installs its own at start().
-- Its jobs are only wake-up calls: the first worker's sweep re-sends every run left pending, or
-- running with a lapsed lease, that has no job. A new database has no pgboss schema yet.
DROP SCHEMA IF EXISTS pgboss CASCADE;
