"""Interop: levels made with other tools, read into packs and written back.

``keke`` reads the Keke AI Competition's level files (ASCII maps with a recorded
solution) and replays each solution under our rules; ``keke_export`` writes packs
back in that format. Both sit above ``play`` because a converted level is only
worth trusting once its recorded solution has been replayed here.
"""
