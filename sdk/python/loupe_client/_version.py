"""Written by `make sdk` from openapi.json `info.version`; do not edit."""

__version__ = "0.1.0"
