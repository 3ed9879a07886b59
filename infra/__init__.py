"""The floor every app stands on, importing none of them: the API kit (infra.api), the realtime plumbing
(infra.realtime), the shared Redis cache client, the one application error and the profiler probe."""
