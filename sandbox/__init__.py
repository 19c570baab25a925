"""Runs generated programs over pdftools in a guarded subprocess (arrives with issue C)."""
