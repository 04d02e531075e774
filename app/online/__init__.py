"""Online judging: rules over the production calls tenants trace with OpenTelemetry."""
