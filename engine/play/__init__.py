"""Play: the public turn and everything a game in progress holds.

``board`` has directions, settled frames and the mutable work board of a turn;
``turn`` resolves an intent as named phases; ``events`` is the turn record;
``game`` is :class:`~engine.play.game.Game` with undo, reset and snapshots;
``snapshot`` encodes and restores those; ``records`` writes entity records and
holds the one checker of records read from outside (snapshots here, solver
positions in ``engine.solve``); ``replay`` plays move strings.
"""
