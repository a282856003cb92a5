"""Files and the clipboard: reading and writing packs, copying regions."""
