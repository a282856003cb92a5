"""The validation feature's panels and their parts."""
