"""The OpenAI Evals API (`/v1/evals`): evals, runs and output items on Loupe's evaluations."""
