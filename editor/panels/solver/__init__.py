"""The solver feature's panels and their parts."""
