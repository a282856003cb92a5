"""Dialogs: the questions the editor asks (behind an injectable interface) and its forms."""
