"""Cluedo: a boardless deduction game with exact-counting detectives.

The deck (:mod:`.deck`), the rules as a game state (:mod:`.rules`, :mod:`.game`), the event
log and what each seat sees of it (:mod:`.events`), the classic notebook (:mod:`.article`),
exact counting over every consistent deal (:mod:`.deduce`) and the computer players
(:mod:`.agents`, :mod:`.roster`).
"""
