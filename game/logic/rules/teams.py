"""More than two players: who is whose enemy, and what each seat scores at the end.

With two players the enemy of a player is the other one, and the compiled programs test a
piece's owner against that one number, as they always did. With more, a player's enemies are
every player outside its team (each player is a team of its own unless the description
groups them with ``(teams (North South) (East West))``): the programs look the owner up in
a table of the player's foes, and a question put to "the enemy" (could the enemy take on this
square?) is put to each of them. :func:`enemy_code` is the number the compiled code passes
for "the enemy" of a player: the player itself with two, ``-1 - player`` (all of its foes)
with more.

>>> enemy_code(0, 2), enemy_code(1, 2), enemy_code(2, 4)
(1, 0, -3)
>>> foes(0, 4, ((0, 2), (1, 3))), foes(1, 3, ())
((1, 3), (0, 2))
>>> results((0, 2), 4)
(1.0, -1.0, 1.0, -1.0)
>>> results((1,), 3)
(-0.5, 1.0, -0.5)
>>> results((0,), 1), results((), 1)
((1.0,), (-1.0,))
"""

from __future__ import annotations

from collections.abc import Sequence

__all__ = ["enemy_code", "foe_test", "foes", "results", "team_of"]


def enemy_code(player: int, players: int) -> int:
    """The enemy the compiled code names for ``player``: the other player with two players,
    else ``-1 - player``, which stands for every foe of ``player``."""
    return (player + 1) % players if players == 2 else -1 - player


def team_of(player: int, teams: Sequence[Sequence[int]]) -> tuple[int, ...]:
    """The players of ``player``'s team (itself alone when no team names it)."""
    for team in teams:
        if player in team:
            return tuple(team)
    return (player,)


def foes(player: int, players: int, teams: Sequence[Sequence[int]]) -> tuple[int, ...]:
    """Every player not in ``player``'s team, in seat order."""
    mine = team_of(player, teams)
    return tuple(p for p in range(players) if p not in mine)


def foe_test(owner: str, player: int, enemy: int, players: int) -> str:
    """A Python test that the owner expression ``owner`` is an enemy of ``player``: a
    comparison with two players, a lookup in the table ``FOE{player}`` with more."""
    if players == 2:
        return f"{owner} == {enemy}"
    return f"{owner} in FOE{player}"


def results(winners: Sequence[int], players: int) -> tuple[float, ...]:
    """Each seat's return when ``winners`` won and the others lost: 1 for a winner, and the
    losers share the winners' total against them, so the returns add up to 0 (1 and -1
    with two players); all 0 when no one, or everyone, won. A player alone (a puzzle) scores
    1 for a win and -1 for a loss."""
    won = set(winners)
    if players == 1:
        return (1.0,) if won else (-1.0,)
    if not won or len(won) == players:
        return (0.0,) * players
    loss = -len(won) / (players - len(won))
    return tuple(1.0 if p in won else loss for p in range(players))
