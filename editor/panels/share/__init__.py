"""The share feature's panels and their parts."""
