"""Candidate models: the tenant's OpenAI-compatible models under test (`/v1/models`)."""
