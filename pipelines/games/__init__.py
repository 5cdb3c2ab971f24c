"""The games core: cards, shoes, hand evaluators, paytables, settlement and exact odds.

Pure functions and dataclasses/pydantic models; imports nothing else of the project and does no I/O
beyond reading its bundled paytable files.
"""
