"""Reference populations: named, versioned sets of held-out opponents for each game and side.

A policy's strength against one scripted opponent says little (every reference so far fell to
some few-line script), so ``hiddendeck benchmark`` scores a policy against every member of a
population and reports the mean and the worst member. A population is versioned: ``v1`` keeps
its members for good, so scores under ``v1`` stay comparable; new styles go into a new version.

``POPULATIONS[name][game][team]`` lists the members that play ``team`` (entrant texts, as every
command takes them: a name, ``LABEL@py:module:attr``); a policy playing another team of the game
meets them. ``v1`` holds random, the heuristic, every scripted exploit the project ships and
the audits' styles written so far (``agents/menace_styles.py``: the large-reserve crew;
``agents/amongus_styles.py``: every style of its ``STYLES``); the audits' other styles (the
careful drain and the vote-reading crew, MANIACAL's sell-and-hire and hardest-contract seats)
and the zoo's trained policies will make ``v2``.
"""

from __future__ import annotations

# The table sizes each game's results are reported at (the yardstick's reference sizes).
REFERENCE_SIZES = {"menace": (5, 7), "amongus": (6,), "maniacal": (4,)}

_V1 = {
    "menace": {
        "crew": ["random", "heuristic", "reserve7@py:agents.menace_styles:MenaceLargeReserve"],
        "menace": ["random", "heuristic", "drain",
                   "saboteur@py:agents.menace_drain:MenaceSaboteur",
                   "wounder@py:agents.menace_drain:MenaceWounder"],
    },
    "amongus": {
        "crew": ["random", "heuristic", "chain",
                 "passive@py:agents.amongus_styles:AmongUsPassive",
                 "liar@py:agents.amongus_styles:AmongUsLiar",
                 "liar_chain@py:agents.amongus_styles:AmongUsLiarChain",
                 "late_vote@py:agents.amongus_styles:AmongUsLateVote"],
        "impostor": ["random", "heuristic", "chain-exploit@py:agents.amongus_chain:ChainExploit",
                     "flash@py:agents.amongus_styles:AmongUsFlash",
                     "hider@py:agents.amongus_styles:AmongUsHider"],
    },
    "maniacal": {
        "player": ["random", "heuristic"],
    },
}

POPULATIONS = {"v1": _V1}


def population(game: str, team: str, name: str = "v1") -> list[str]:
    """The members of population ``name`` that play ``team`` in ``game``."""
    if name not in POPULATIONS:
        raise ValueError(f"unknown population {name!r}; populations are {sorted(POPULATIONS)}")
    by_team = POPULATIONS[name].get(game)
    if by_team is None:
        raise ValueError(f"population {name} has no {game} members")
    if team not in by_team:
        raise ValueError(f"population {name} has no {game} members playing {team!r}; it has "
                         f"{sorted(by_team)}")
    return list(by_team[team])
