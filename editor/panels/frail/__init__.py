"""The frail feature's panels and their parts."""
