"""The pure game logic: states, rules, judges, search. No GL, no windows."""
