-- pepsi-dispatch schema, version 3: the insert trigger says where the rows it
-- inserted start. Its notification names, for each stage it inserted pending
-- rows at, the lowest such id ({"stage": id}); the dispatcher then walks that
-- stage of workqueue_pending from there rather than from its first entry,
-- which a snapshot held elsewhere (pg_dump, a session idle in transaction)
-- makes the first of every row the stage ever had. Too many stages for one
-- notification (8000 bytes) send an empty payload, which the dispatcher reads
-- as "anything may be anywhere". Rows made pending by an UPDATE are not
-- announced; the dispatcher's heartbeat (POLL_INTERVAL) finds them.
-- Replacing a trigger takes a brief lock on workqueue; no rows are rewritten.

CREATE OR REPLACE FUNCTION workqueue_notify() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
    payload text;
BEGIN
    SELECT coalesce(jsonb_object_agg(stage, first_id), '{}')::text INTO payload
      FROM (SELECT stage, min(workqueue_id) AS first_id
              FROM inserted WHERE status = 'pending' GROUP BY stage) AS firsts;
    IF octet_length(payload) > 7900 THEN
        payload := '';
    END IF;
    PERFORM pg_notify('workqueue', payload);
    RETURN NULL;
END $$;

DROP TRIGGER workqueue_notify ON workqueue;
CREATE TRIGGER workqueue_notify AFTER INSERT ON workqueue REFERENCING NEW TABLE AS inserted
    FOR EACH STATEMENT EXECUTE FUNCTION workqueue_notify();

CREATE TABLE IF NOT EXISTS pepsi_schema (version integer NOT NULL, installed timestamptz DEFAULT now());
INSERT INTO pepsi_schema (version) VALUES (3);
