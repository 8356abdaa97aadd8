"""Subcommands of ``boardroom`` that run on the client side."""
