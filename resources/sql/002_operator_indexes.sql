-- pepsi-dispatch schema, version 2: failed and timeout rows are counted and listed through an
-- index of their own, so that the control socket never scans the history of done rows.
-- Building it reads workqueue once (a few seconds for millions of rows) and holds off writers
-- meanwhile; on a busy system apply it at a quiet moment.

CREATE INDEX workqueue_failed ON workqueue (stage, status, workqueue_id) WHERE status IN ('failed', 'timeout');

CREATE TABLE IF NOT EXISTS pepsi_schema (version integer NOT NULL, installed timestamptz DEFAULT now());
INSERT INTO pepsi_schema (version) VALUES (2);
