"""The rules feature's panels and their parts."""
