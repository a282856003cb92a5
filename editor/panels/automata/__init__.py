"""The automata feature's panels and their parts."""
