"""Interop: levels made with other tools, read into packs and written back.

``keke_key`` is the Keke AI Competition's map key and map reader; ``keke_read``
reads a level file into records (caps, types, unsupported uses); ``keke`` builds
the validated pack and replays every recorded solution under our rules;
``keke_export`` writes packs back in that format. The package sits above
``play`` because a converted level is only worth trusting once its recorded
solution has been replayed here.
"""
