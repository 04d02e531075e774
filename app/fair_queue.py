"""Fair sharing of workers between tenants: where a queued job waits, and when a running job
gives its worker up.

Every job has an owner (its tenant; "" for upkeep such as webhook deliveries), written into
the queued id as `<owner>-<job id>` because RQ ids carry nothing else. A job's rank is the
number of its owner's jobs running plus its place among the owner's waiting jobs; the line is
kept in rank order (first come first served within a rank), so a tenant with nothing running
waits behind at most one job of each other tenant, however many those have queued. A running
job that has had its turn (`LOUPE_JOB_TURN_SECONDS`) gives its worker up when the job at the
head of the line belongs to a tenant running fewer jobs than its own; one waiting job displaces
at most one running job (a claim on the waiting job's id). The job's remaining cases go back in
line as a continuation (`<job id>-<turn>`), so nothing is lost and no call is repeated.

`waiting_position` and `should_give_way` are the rules; the embedded dispatcher applies them
in the process and `FairQueue` applies the first inside Redis (one Lua script, atomic with
RQ's enqueue), both tested against each other.
"""

import time
from collections import Counter
from collections.abc import Mapping, Sequence
from functools import cached_property
from typing import Any

from rq import Queue


def queued_id(owner: str, job_id: str) -> str:
    """The id a job is queued under: its owner, a dash, its own id."""
    return f"{owner}-{job_id}" if owner else job_id


def owner_of(queued: str) -> str:
    """The owner written into a queued id ("" for a job without one)."""
    owner, dash, _ = queued.partition("-")
    return owner if dash else ""


def work_of(queued: str) -> str:
    """The work a queued id stands for, without a continuation's turn: two ids with the same
    work are the same slice of the same evaluation."""
    return "-".join(queued.split("-")[:2])


def waiting_position(waiting: Sequence[str], running: Mapping[str, int], owner: str) -> int:
    """Where a new job of `owner` goes in the line `waiting` (owners, head first).

    Before the first waiting job whose rank exceeds the new job's; at the end if none does.
    """
    rank = running.get(owner, 0) + sum(1 for other in waiting if other == owner) + 1
    seen: Counter[str] = Counter()
    for position, other in enumerate(waiting):
        seen[other] += 1
        if running.get(other, 0) + seen[other] > rank:
            return position
    return len(waiting)


def should_give_way(head_owner: str | None, running: Mapping[str, int], owner: str) -> bool:
    """Whether a running job of `owner` should give its worker to the head of the line."""
    if head_owner is None or head_owner == owner:
        return False
    return running.get(head_owner, 0) < running.get(owner, 0)


# The same rule as `waiting_position`, inside Redis so that reading the line and inserting into
# it cannot interleave with another enqueue. KEYS: the queue's list, the running set (a sorted
# set of queued ids scored by lease expiry). ARGV: the queued id, the current time.
_INSERT = """
local function owner(id)
  local dash = string.find(id, '-', 1, true)
  if dash then return string.sub(id, 1, dash - 1) end
  return ''
end
local running = {}
for _, id in ipairs(redis.call('ZRANGEBYSCORE', KEYS[2], ARGV[2], '+inf')) do
  local o = owner(id)
  running[o] = (running[o] or 0) + 1
end
local waiting = redis.call('LRANGE', KEYS[1], 0, -1)
local me = owner(ARGV[1])
local rank = (running[me] or 0) + 1
for _, id in ipairs(waiting) do
  if owner(id) == me then rank = rank + 1 end
end
local seen = {}
for _, id in ipairs(waiting) do
  local o = owner(id)
  seen[o] = (seen[o] or 0) + 1
  if (running[o] or 0) + seen[o] > rank then
    return redis.call('LINSERT', KEYS[1], 'BEFORE', id, ARGV[1])
  end
end
return redis.call('RPUSH', KEYS[1], ARGV[1])
"""


def running_key(queue_name: str) -> str:
    """The sorted set of a queue's running jobs (queued id → lease expiry, epoch seconds)."""
    return f"loupe:fair:{queue_name}:running"


def claim_key(queue_name: str, queued: str) -> str:
    """Taken by the one running job that gives way to the waiting job `queued`."""
    return f"loupe:fair:{queue_name}:claim:{queued}"


class FairQueue(Queue):
    """An RQ queue whose enqueue puts a job at its fair place in line instead of at the end.

    Workers dequeue from the head as from any RQ queue; `at_front` still means the front.
    """

    @cached_property
    def _insert(self) -> Any:
        return self.connection.register_script(_INSERT)

    def push_job_id(self, job_id: str, pipeline: Any = None, at_front: bool = False) -> None:
        if at_front:
            super().push_job_id(job_id, pipeline=pipeline, at_front=True)
            return
        self._insert(
            keys=[self.key, running_key(self.name)],
            args=[job_id, time.time()],
            client=pipeline if pipeline is not None else self.connection,
        )
