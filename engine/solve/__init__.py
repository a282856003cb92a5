"""Solving: the compact transition path and the searches that drive it.

``level`` is :class:`~engine.solve.level.CompactLevel`, the public engine's turns on
int-keyed positions, assembled from its parts: ``state_codec`` packs a position into
one int, ``rules`` reads its rules with the public parser, ``grid`` is cell
arithmetic, ``walk`` resolves the most common turns as key arithmetic and ``turn``
every other turn, phase by phase as :mod:`engine.play.phases` does; ``position``
holds the values they pass around. ``table`` keeps a search's positions,
``heuristic`` is the best-first estimate and ``search`` is :func:`engine.solve`
itself. The parity tests prove the compact path agrees with :mod:`engine.play` at
every step.
"""
