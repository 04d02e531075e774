"""Alignments: a candidate metric version proposed from people's labelled disagreements, judged
against the current one on held-out labels, then activated or declined (issue 29 item 6)."""
