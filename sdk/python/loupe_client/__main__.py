"""`python -m loupe_client` is `loupe-client`."""

from ._cli import script

script()
