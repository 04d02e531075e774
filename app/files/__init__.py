"""Files for OpenAI Evals runs (`/v1/files`, purpose `evals`)."""
