"""People and their roles in teams: who signs in through the identity provider (OIDC), which
teams they belong to with which role, and what each role may do in the console."""
