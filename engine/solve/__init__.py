"""Solving: the compact transition path and the searches that drive it.

``level`` is :class:`~engine.solve.level.CompactLevel`, the public engine's turns on
int-keyed positions; ``state_codec`` packs a position into one int; ``rules`` and
``turn`` are the compact path's rule reading and general turn; ``heuristic`` is the
best-first estimate; ``search`` is :func:`engine.solve` itself. The parity tests
prove the compact path agrees with :mod:`engine.play` at every step.
"""
