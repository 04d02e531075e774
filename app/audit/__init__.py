"""The audit trail: who changed what in a tenant and when.

Code that changes a tenant's state calls `record` on the session that makes the change, so the
event commits with it or not at all; the request's authentication says who acts on the session
(`acting`), jobs and the ticker act as `system`.
"""

from app.audit.service import SYSTEM, acting, actor_of, log_only, prune, record

__all__ = ["SYSTEM", "acting", "actor_of", "log_only", "prune", "record"]
