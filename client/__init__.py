"""The Boardroom client side: the ``boardroom`` command line, and (later) the terminal
client, the bot SDK and the load tool. Imports ``shared`` and never ``server``."""
