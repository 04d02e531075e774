"""RQ entry points and worker start-up."""
