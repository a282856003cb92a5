"""The editor's icons and sounds, installed as the data package ``rulegrid_data.resources``.

Data only: ``editor/resources.py`` reads every file here through importlib.resources.
"""
