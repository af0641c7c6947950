"""Reference populations: named, versioned sets of held-out opponents for each game and side.

A policy's strength against one scripted opponent says little (every reference so far fell to
some few-line script), so ``hiddendeck benchmark`` scores a policy against every member of a
population and reports the mean and the worst member. A population is versioned: ``v1`` keeps
its members for good, so scores under ``v1`` stay comparable; new styles go into a new version.

``POPULATIONS[name][game][team]`` lists the members that play ``team`` (entrant texts, as every
command takes them: a name, ``LABEL@py:module:attr``, ``zoo:NAME``); a policy playing another
team of the game meets them. A zoo member is a checkpoint trained at one table size and joins
the population at that size only.

- ``v1``: random, the heuristic, every scripted exploit the project shipped by then and the
  audits' styles written by then (``agents/menace_styles.py``: the large-reserve crew;
  ``agents/amongus_styles.py``: every style of its ``STYLES``).
- ``v2`` (the default, ``DEFAULT``): ``v1`` plus the audits' remaining styles (the Menace's
  careful drain and vote-reading crew, MANIACAL's sell-and-hire and hardest-contract seats)
  and the zoo's trained policies (``agents.zoo``).
- ``v3``: ``v2`` plus the turn-4 audits' styles, each the heuristic with one decision changed
  (``shared/audits/turn4/``): the Menace's killer, free-harm killer, careful and
  suspicion-budget Menaces and the Crew that never votes (``agents/menace_styles.py``);
  Among Us's one-decoy crew and impostor and the honest-first chain
  (``agents/amongus_styles.py``); MANIACAL's hard-first seat (``agents/maniacal_styles.py``).
  Its scripted members play at every table size the game supports; a zoo member, as in
  ``v2``, only at its own. (``freeharm`` is the killer with free harm added, the audit's
  strongest Menace at 6-8 players.)
"""

from __future__ import annotations

from . import zoo

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

_ZOO_MENACE = {"crew": ["zoo:menace5-crew-s1"], "menace": ["zoo:menace5-menace-s1"]}
_V2 = {
    "menace": {
        "crew": _V1["menace"]["crew"] + ["tell@py:agents.menace_styles:MenaceTell"]
        + _ZOO_MENACE["crew"],
        "menace": _V1["menace"]["menace"] + ["careful@py:agents.menace_drain:MenaceCarefulDrain"]
        + _ZOO_MENACE["menace"],
    },
    "amongus": {team: list(members) for team, members in _V1["amongus"].items()},
    "maniacal": {
        "player": _V1["maniacal"]["player"]
        + ["sellhire@py:agents.maniacal_styles:ManiacalSellHire",
           "biggest@py:agents.maniacal_styles:ManiacalBiggest"],
    },
}

_V3 = {
    "menace": {
        "crew": _V2["menace"]["crew"] + ["pass_crew@py:agents.menace_styles:MenacePassCrew"],
        "menace": _V2["menace"]["menace"]
        + ["killer@py:agents.menace_styles:MenaceKiller",
           "freeharm@py:agents.menace_styles:MenaceFreeHarm",
           "careful_menace@py:agents.menace_styles:MenaceCareful",
           "budget@py:agents.menace_styles:MenaceBudget"],
    },
    "amongus": {
        "crew": _V2["amongus"]["crew"]
        + ["mono@py:agents.amongus_styles:AmongUsMono",
           "honest_first@py:agents.amongus_styles:AmongUsHonestFirst"],
        "impostor": _V2["amongus"]["impostor"]
        + ["mono_impostor@py:agents.amongus_styles:AmongUsMonoImpostor"],
    },
    "maniacal": {
        "player": _V2["maniacal"]["player"]
        + ["hard_first@py:agents.maniacal_styles:ManiacalHardFirst"],
    },
}

POPULATIONS = {"v1": _V1, "v2": _V2, "v3": _V3}
DEFAULT = "v2"  # what commands use when no population is named


def population(game: str, team: str, name: str = DEFAULT, players: int | None = None
               ) -> list[str]:
    """The members of population ``name`` that play ``team`` in ``game`` (at a table of
    ``players``: a zoo member only at the size it was trained for)."""
    if name not in POPULATIONS:
        raise ValueError(f"unknown population {name!r}; populations are {sorted(POPULATIONS)}")
    by_team = POPULATIONS[name].get(game)
    if by_team is None:
        raise ValueError(f"population {name} has no {game} members")
    if team not in by_team:
        raise ValueError(f"population {name} has no {game} members playing {team!r}; it has "
                         f"{sorted(by_team)}")
    return [m for m in by_team[team] if players is None or _plays_at(m, players)]


def _plays_at(member: str, players: int) -> bool:
    source = member.partition("@")[2] or member
    return not zoo.is_zoo(source) or zoo.entry(source[len(zoo.PREFIX):])["players"] == players
