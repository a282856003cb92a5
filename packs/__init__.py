"""The bundled packs, installed as the data package ``rulegrid_data.packs``.

Data only, and never written by Rulegrid: ``engine.packs.shipped`` finds them
through importlib.resources (``rulegrid packs`` lists them with their paths).
"""
