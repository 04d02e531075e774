"""Ids: sortable by creation time, unique, and not predictable from the ids a client has seen
(they were a seeded Mersenne Twister's output: 312 ids gave away its whole state)."""

import os
import random
import time
from datetime import UTC, datetime

from app.ids import id_floor, new_id

_MASK = 0xFFFFFFFF


def _undo_right(value: int, shift: int) -> int:
    result = value
    for _ in range(32 // shift + 1):
        result = value ^ (result >> shift)
    return result & _MASK


def _undo_left(value: int, shift: int, mask: int) -> int:
    result = value
    for _ in range(32 // shift + 1):
        result = value ^ ((result << shift) & mask)
    return result & _MASK


def untemper(output: int) -> int:
    """The Mersenne Twister state word behind one 32-bit output (its tempering undone)."""
    value = _undo_right(output, 18)
    value = _undo_left(value, 15, 0xEFC60000)
    value = _undo_left(value, 7, 0x9D2C5680)
    return _undo_right(value, 11)


def predicted_next(random_parts: list[int]) -> int:
    """The next 64 random bits if the 312 given ones came from one random.Random.

    getrandbits(64) takes two 32-bit outputs, the low word first: 312 ids are 624 outputs,
    the generator's whole state.
    """
    words = []
    for part in random_parts[-312:]:
        words += [part & _MASK, part >> 32]
    clone = random.Random()
    clone.setstate((3, (*[untemper(word) for word in words], 624), None))
    return clone.getrandbits(64)


def random_part(identifier: str) -> int:
    return int(identifier.split("_", 1)[1][12:], 16)


class TestNewId:
    def test_the_recovery_predicts_a_mersenne_twister(self) -> None:
        # The attack the test below runs, shown to work on the generator ids used to come from.
        twister = random.Random(int.from_bytes(os.urandom(16)))
        seen = [twister.getrandbits(64) for _ in range(312)]
        assert predicted_next(seen) == twister.getrandbits(64)

    def test_312_ids_do_not_predict_the_next(self) -> None:
        seen = [random_part(new_id("res")) for _ in range(312)]
        following = [random_part(new_id("res")) for _ in range(3)]
        assert predicted_next(seen) not in following

    def test_ids_sort_by_creation_time_and_are_unique(self) -> None:
        earlier = [new_id("eval") for _ in range(1000)]
        moment = time.time()
        while time.time() - moment < 0.002:  # the next millisecond, at least
            pass
        later = [new_id("eval") for _ in range(1000)]
        assert len(set(earlier + later)) == 2000
        assert max(earlier) < min(later)
        assert all(len(identifier) == len("eval_") + 28 for identifier in earlier + later)


class TestIdFloor:
    def test_ids_issued_before_a_moment_sort_below_its_floor_later_ones_above(self) -> None:
        earlier = new_id("msg")
        time.sleep(0.002)
        moment = datetime.now(UTC)
        floor = id_floor("msg", moment)
        time.sleep(0.002)
        later = new_id("msg")
        assert earlier < floor < later
        assert floor == f"msg_{int(moment.timestamp() * 1000):012x}"
