"""``boardroom match``: A/B matches between bots that decide, with an SPRT.

- :mod:`~boardroom.client.match.stats`: pentanomial counts, the GSPRT, Elo (pure);
- :mod:`~boardroom.client.match.openings`: the suites of openings pairs start from;
- :mod:`~boardroom.client.match.bots`: the players, any bot ``boardroom bot`` plays;
- :mod:`~boardroom.client.match.runner`: pairs of games played on this machine;
- :mod:`~boardroom.client.match.server_match`: the same on a server (``--server``);
- :mod:`~boardroom.client.match.report`: the live line, the verdict, the JSON report.

The command itself is :mod:`boardroom.client.commands.match`.
"""
