"""Prompt templates (Jinja2, StrictUndefined), loaded with importlib.resources."""
