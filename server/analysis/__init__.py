"""Post-game analysis over HTTP: the engine judges every move of a finished game.

:mod:`boardroom.server.analysis.service` runs the analyses in the engine pool and keeps them
in the store; :mod:`boardroom.server.analysis.routes` is ``GET /api/games/{id}/analysis``.
The judging itself is :mod:`boardroom.shared.engine.analysis`.
"""
