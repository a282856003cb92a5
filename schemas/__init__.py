"""The pack and level JSON Schemas, installed as the data package ``rulegrid_data.schemas``.

Data only: ``engine.packs.shipped`` reads these files through importlib.resources.
"""
