"""Few-shot example requests with their plans (examples.jsonl) and programs (programs.jsonl).

Data, verified by tests.
"""
