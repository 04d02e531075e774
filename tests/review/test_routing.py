"""Why an item is offered (app/review/routing.py): pure functions of scores and routing."""

import pytest

from app.review import routing


class TestLowestCutoff:
    def test_the_share_rounds_up_and_takes_at_least_one(self) -> None:
        scores = [0.9, 0.1, 0.5, 0.3, 0.7]
        assert routing.lowest_cutoff(scores, 0.2) == 0.1
        assert routing.lowest_cutoff(scores, 0.3) == 0.3  # 1.5 items: two
        assert routing.lowest_cutoff(scores, 0.01) == 0.1
        assert routing.lowest_cutoff(scores, 1) == 0.9
        assert routing.lowest_cutoff([], 0.5) is None

    def test_ties_with_the_cutoff_are_in(self) -> None:
        cutoff = routing.lowest_cutoff([0.2, 0.2, 0.2, 0.8], 0.25)
        assert cutoff == 0.2
        assert routing.reason({"lowest": {"share": 0.25}}, 0.2, None, None, cutoff, 0.9) == (
            "lowest"
        )


class TestAuditDraw:
    def test_the_same_item_draws_the_same_number_and_queues_draw_apart(self) -> None:
        draw = routing.audit_draw("rq_a", "res_1")
        assert draw == routing.audit_draw("rq_a", "res_1")
        assert 0 <= draw < 1
        assert draw != routing.audit_draw("rq_b", "res_1")

    def test_a_share_takes_about_that_share(self) -> None:
        draws = [routing.audit_draw("rq_a", f"res_{n}") for n in range(4000)]
        assert sum(draw < 0.25 for draw in draws) / len(draws) == pytest.approx(0.25, abs=0.03)


class TestReason:
    ROUTING = {
        "near_threshold": {"width": 0.1},
        "fragile": True,
        "lowest": {"share": 0.1},
        "audit_share": 0.5,
    }

    @pytest.mark.parametrize(
        ("score", "threshold", "fragile", "draw", "expected"),
        [
            (0.55, 0.5, True, 0.0, "near_threshold"),  # the first reason that fits
            (0.4, 0.5, False, 0.9, "near_threshold"),  # the width is inclusive
            (0.9, 0.5, True, 0.9, "fragile"),
            (0.05, 0.5, False, 0.9, "lowest"),
            (0.9, 0.5, False, 0.2, "audit"),
            (0.9, 0.5, False, 0.7, None),
            (0.52, None, False, 0.7, None),  # no threshold: never near it
        ],
    )
    def test_each_reason(
        self,
        score: float,
        threshold: float | None,
        fragile: bool,
        draw: float,
        expected: str | None,
    ) -> None:
        assert routing.reason(self.ROUTING, score, threshold, fragile, 0.1, draw) == expected

    def test_nothing_asked_routes_nothing(self) -> None:
        assert routing.reason({"audit_share": 0}, 0.5, 0.5, True, None, 0.0) is None
        assert (
            routing.PRIORITY["near_threshold"] < routing.PRIORITY["audit"] < routing.PRIORITY[None]
        )
