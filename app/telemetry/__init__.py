"""Operating Loupe: Prometheus metrics (`metrics`, `exposition`), request ids and HTTP metrics
(`http`), structured log lines (`logs`). Imports nothing from the domains."""
