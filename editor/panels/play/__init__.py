"""The play feature's panels and their parts."""
