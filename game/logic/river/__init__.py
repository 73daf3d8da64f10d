"""Priests and Devils: the rules, the judge, the solvers and the game of the contract."""
