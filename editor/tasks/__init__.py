"""Background work: solving, whole-pack validation and verification off the UI thread.

Inputs are immutable snapshots taken when a task starts; results come back to the
UI thread through signals, with progress and cancel, and stale results are flagged.
"""
