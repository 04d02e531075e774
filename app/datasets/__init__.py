"""Parse uploaded evaluation datasets (EvalScope and VLMEvalKit formats) into rows."""
