"""Loupe: a self-hosted service that judges multimodal LLM output."""
