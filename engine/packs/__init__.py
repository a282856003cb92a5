"""Packs: the file format on disk, checked and loaded, and written back.

``schema`` generates and explains the JSON Schemas; ``compiled`` is the fast
yes/no schema check; ``validate`` runs sizes, the schema and the semantic
validators and locates every problem; ``load`` reads packs from files, folders,
trusted ``pack.py`` modules and dicts; ``save`` writes the canonical pack text
through the one atomic file writer.
"""
