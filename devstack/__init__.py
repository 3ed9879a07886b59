"""The development harness: `make run` and `make test` on a machine with Python alone (embedded PostgreSQL and
Redis, the process runner, the local mail catcher). Used by the Makefile, the Procfile, tests and benchmarks;
imported by no app."""
