"""The reads and writes by bare id that jobs and authentication need: no tenant filter here.

Everything else that reads tenant-owned rows goes through a `TenantScopedRepository`
(`app/repository.py`). A job receives an id and nothing else, so it reads its evaluation,
webhook event or cache scope here; authentication finds a key before it knows the tenant.
Every class is named `Unscoped...Repository`; tests/tenants/test_repository_scope.py fails on a
repository elsewhere reading tenant-owned rows without the tenant.
"""
