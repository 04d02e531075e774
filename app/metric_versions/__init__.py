"""Metric versions: a judged metric's verdict-changing definition per tenant (issue 29)."""
