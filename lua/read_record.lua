-- read_record.lua: one task's record, for readers outside a script (a page of the app, `ls`,
-- export): only a script knows which bucket holds it (buckets.lua). Sent by EVAL with
-- buckets.lua alone, so it rides in the readers' pipelines and transactions like an HGET.
-- KEYS: the first four of the nine of every native-queue script (push.lua): [1] pending,
--   [2] active, [3] dead (not read), [4] data bucket prefix ("dq:{Q}:d:")
-- ARGV[1] the id
-- Reply: the record "created|max_attempts|backoff|payload" (bulk), or nil when there is none.
-- Errors: none of its own.
return redis.call('HGET', data_key(ARGV[1]), ARGV[1])
