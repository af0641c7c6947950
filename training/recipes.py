"""Recipes as files: ``recipes/NAME.toml`` holds everything a published run was made with.

A recipe names the game, the table size and the step budget (agent decisions after the warm
start: never wall time, so a loaded machine runs the same recipe), every trainer option that
differs from ``training.ppo.Args``'s defaults, and how its runs are scored: the reference
population, the scoring seeds (never a training seed), the games per member and whether a
checkpoint is scored sampled or greedy (a hidden-role policy may mean to mix; said before its
sweep runs, never chosen after looking). ::

    name = "menace5"
    game = "menace"
    players = 5               # or [4, 5, 6]: a mixed-size run (model = "seats")
    steps = 23_000_000

    [trainer]                 # training.ppo.Args fields
    imitation_steps = 3_000_000
    imitate_also = ["drain"]
    team_hidden = { crew = [128, 128] }

    [score]
    population = "v1"
    seeds = [1_000_003]
    games = 4000
    play = "sampled"          # or "greedy": decided before the sweep runs
    players = [4, 5, 6, 7, 8] # the table sizes scored, or "all" (a seat network only)

``[score] players`` says at which table sizes a checkpoint is scored, one score a size: by
default a single-size recipe's own table, and every size the game deals for a mixed-size one
(the sizes it trained at and those it never met). An MLP or GRU reads one table, so only a
seat network (``model = "seats"``) is scored at a size it did not train at.

``hiddendeck train --recipe menace5 --seed 11`` trains it; ``hiddendeck sweep menace5 --seeds 5``
trains and scores several seeds (``training.sweep``). A key the trainer does not know, a wrong
type or a wall-time budget is refused on one line naming the file and the key.
"""

from __future__ import annotations

import dataclasses
import hashlib
import tomllib
from dataclasses import dataclass, field
from pathlib import Path

import envs
from agents.outside import is_outside
from agents.populations import POPULATIONS

from .ppo import Args

RECIPES = Path(__file__).resolve().parents[1] / "recipes"
# Args fields a recipe may not set: the run's own (seed, out, resume, seen_before, threads,
# device), the budget (``steps`` at the top level; never seconds), the game and table or tables
# (top-level keys), the display.
NOT_IN_TRAINER = {"game", "num_players", "table_sizes", "params", "seed", "out", "total_steps",
                  "seconds", "resume", "seen_before", "progress", "tensorboard", "threads",
                  "device",
                  "recipe"}
TOP = {"name", "description", "game", "players", "steps", "params", "trainer", "score"}
SCORE = {"population", "seeds", "games", "play", "players"}
PLAYS = ("sampled", "greedy")
# Args fields that name policies: ``py:MODULE:ATTR`` there imports and runs code, which a shared
# recipe file may not do unless the command line allows it (``--allow-code``).
POLICY_FIELDS = ("scripted_opponents", "fixed_teams", "imitate", "imitate_also",
                 "eval_opponents")
# The widest layer a recipe may ask for: 8192 x 8192 is 67M weights (about 1 GB with Adam's
# state), thirty times the published recipes' networks; beyond it a typo's allocation fails
# deep in torch instead of on one line here.
MAX_WIDTH = 8192


@dataclass(frozen=True)
class Recipe:
    name: str
    path: Path
    digest: str  # sha256 of the file's bytes
    game: str
    players: int  # the table (a mixed-size recipe's first size)
    steps: int
    description: str = ""
    params: dict = field(default_factory=dict)
    trainer: dict = field(default_factory=dict)
    population: str = "v1"
    scoring_seeds: tuple[int, ...] = (1_000_003,)
    games: int = 2000
    play: str = "sampled"  # how a trained checkpoint is scored: sampled, or its greedy action
    table_sizes: tuple[int, ...] = ()  # a mixed-size recipe's ``players = [4, 5, 6]``
    score_sizes: tuple[int, ...] = ()  # ``[score] players``: the tables a checkpoint is scored at

    @property
    def trained_at(self) -> tuple[int, ...]:
        """The table sizes the recipe trains at (a single-size recipe's one)."""
        return self.table_sizes or (self.players,)

    @property
    def label(self) -> str:
        return f"{self.name}@{self.digest}"

    def args(self, seed: int, out: str | Path, **run) -> Args:
        """The trainer's arguments for one seed of this recipe (``run``: threads, progress,
        tensorboard, resume: how to run it, never what is trained)."""
        if seed in self.scoring_seeds:
            raise ValueError(f"recipe {self.name}: training seed {seed} is one of its scoring "
                             f"seeds {list(self.scoring_seeds)}")
        args = Args(game=self.game, num_players=self.players, table_sizes=self.table_sizes,
                    params=dict(self.params),
                    seed=seed, out=str(out), total_steps=self.steps, recipe=self.label,
                    **self.trainer, **run)
        args.check()
        return args


def _as_field(name: str, value, default):
    """A TOML value in the type of the Args field (lists become the tuples Args uses; TOML has
    no null, so ``imitate = "none"`` is no warm start, ``deduction = "none"`` none)."""
    if name in ("imitate", "deduction") and isinstance(value, str) and value.lower() == "none":
        return None
    if isinstance(default, tuple) and isinstance(value, list):
        return tuple(value)
    if isinstance(default, dict) and isinstance(value, dict):
        return {k: tuple(v) if isinstance(v, list) else v for k, v in value.items()}
    if isinstance(default, bool) != isinstance(value, bool) and default is not None:
        raise TypeError
    if isinstance(default, float) and isinstance(value, int):
        return float(value)
    if default is not None and not isinstance(value, type(default)):
        raise TypeError
    return value


def find(name: str) -> Path:
    """A recipe by name (``recipes/NAME.toml``) or by path."""
    path = Path(name)
    if path.suffix == ".toml" or path.exists():
        return path
    path = RECIPES / f"{name}.toml"
    if not path.is_file():
        known = sorted(p.stem for p in RECIPES.glob("*.toml"))
        raise ValueError(f"no recipe {name!r}; recipes are {known} (or give a .toml path)")
    return path


def _named_policies(value) -> list[str]:
    """The policy names of a POLICY_FIELDS value: a name, a list of them, or ``{team: name}``."""
    values = value.values() if isinstance(value, dict) else (
        [value] if isinstance(value, str) else value or ())
    return [v for v in values if isinstance(v, str)]


def load(name: str, allow_code: bool = False) -> Recipe:
    """The recipe ``name`` names, every key checked; a policy given as ``py:MODULE:ATTR`` (code
    to import and run) only with ``allow_code`` (the command line's ``--allow-code``)."""
    path = find(name)
    try:
        raw = path.read_bytes()
        data = tomllib.loads(raw.decode("utf-8"))
    except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError) as e:
        raise ValueError(f"{path}: unreadable recipe ({e})") from None

    def bad(key: str, why: str) -> ValueError:
        return ValueError(f"{path}: {key}: {why}")

    for key in data:
        if key not in TOP:
            raise bad(key, f"unknown key; a recipe has {sorted(TOP)}")
    for key in ("game", "players", "steps"):
        if key not in data:
            raise bad(key, "missing")
    if data["game"] not in envs.registry:
        raise bad("game", f"unknown game {data['game']!r}")
    sizes = data["players"] if isinstance(data["players"], list) else [data["players"]]
    if not sizes:
        raise bad("players", "an empty list: name the table size, or the sizes of a mixed-size "
                  "run")
    for key, value in [*(("players", n) for n in sizes), ("steps", data["steps"])]:
        if isinstance(value, bool) or not isinstance(value, int) or value < 1:
            raise bad(key, f"expected a positive integer, got {value!r}")
    defaults = {f.name: f for f in dataclasses.fields(Args)}
    trainer = {}
    for key, value in data.get("trainer", {}).items():
        if key in NOT_IN_TRAINER or key not in defaults:
            why = ("a recipe's budget is `steps`, agent decisions: never wall time"
                   if key == "seconds" else
                   "set at the top of the recipe or per run, not in [trainer]"
                   if key in NOT_IN_TRAINER else "not a training.ppo.Args field")
            raise bad(f"[trainer] {key}", why)
        f = defaults[key]
        default = f.default if f.default is not dataclasses.MISSING else f.default_factory()
        try:
            trainer[key] = _as_field(key, value, default)
        except TypeError:
            raise bad(f"[trainer] {key}", f"expected {type(default).__name__}, got "
                      f"{value!r}") from None
        code = [v for v in _named_policies(trainer[key]) if is_outside(v)] \
            if key in POLICY_FIELDS else []
        if code and not allow_code:
            raise bad(f"[trainer] {key}", f"{code[0]!r} is code to import and run; a recipe "
                      f"runs code only when the command line says so (--allow-code)")
    for key in ("hidden", "critic_hidden", "team_hidden"):
        value = trainer.get(key)
        widths = [value] if key != "team_hidden" else list((value or {}).values())
        if any(isinstance(w, int) and w > MAX_WIDTH
               for each in widths if isinstance(each, tuple) for w in each):
            raise bad(f"[trainer] {key}", f"a layer wider than {MAX_WIDTH:,} (got {value!r})")
    score = data.get("score", {})
    for key in score:
        if key not in SCORE:
            raise bad(f"[score] {key}", f"unknown key; [score] has {sorted(SCORE)}")
    population = score.get("population", "v1")
    if population not in POPULATIONS:
        raise bad("[score] population", f"unknown population {population!r}")
    seeds = score.get("seeds", [1_000_003])
    if not isinstance(seeds, list) or not seeds or not all(
            isinstance(s, int) and not isinstance(s, bool) and s >= 0 for s in seeds):
        raise bad("[score] seeds", f"expected a non-empty list of seeds, got {seeds!r}")
    play = score.get("play")
    if play not in PLAYS:
        raise bad("[score] play", f"say how a checkpoint is scored, before its sweep runs: "
                  f"one of {list(PLAYS)}, got {play!r}")
    games = score.get("games", 2000)
    if isinstance(games, bool) or not isinstance(games, int) or games < 2:
        raise bad("[score] games", f"expected an integer >= 2, got {games!r}")
    score_sizes = _score_sizes(score.get("players"), data["game"], sizes,
                               trainer.get("model", "mlp"), lambda why: bad("[score] players", why))
    label = data.get("name", path.stem)
    for key, text in (("name", label), ("description", data.get("description", ""))):
        if not isinstance(text, str) or not text.isprintable():  # both reach the terminal
            raise bad(key, f"expected one line of printable text, got {text!r}")
    spec = envs.registry[data["game"]]
    try:
        params = spec.resolve(num_players=sizes[0], **data.get("params", {}))
    except (ValueError, TypeError) as e:
        raise bad("params", str(e)) from None
    params.pop("num_players")
    recipe = Recipe(
        name=label, path=path,
        digest="sha256:" + hashlib.sha256(raw).hexdigest(), game=data["game"],
        players=sizes[0], table_sizes=tuple(sizes) if len(sizes) > 1 else (),
        steps=data["steps"], description=data.get("description", ""),
        params=params, trainer=trainer, population=population, scoring_seeds=tuple(seeds),
        games=games, play=play, score_sizes=score_sizes)
    try:
        recipe.args(seed=max(recipe.scoring_seeds) + 1, out="runs/check")
    except ValueError as e:
        raise bad("[trainer]", str(e)) from None
    return recipe


def _score_sizes(value, game: str, trained_at: list[int], model: str, bad) -> tuple[int, ...]:
    """``[score] players`` as the table sizes to score at (see the module's docstring): a
    list of sizes the game deals, none twice, or ``"all"``; at a size the run never trained at
    only for a seat network."""
    spec = envs.registry[game]
    every = tuple(range(spec.min_players, spec.max_players + 1))
    if value is None:
        return every if len(trained_at) > 1 else (trained_at[0],)
    if value == "all":
        value = list(every)
    if not isinstance(value, list) or not value:
        raise bad(f"expected a non-empty list of table sizes or \"all\", got {value!r}")
    for n in value:
        if isinstance(n, bool) or not isinstance(n, int) or n not in every:
            raise bad(f"{n!r} is not a table size of {game} (it deals {every[0]} to "
                      f"{every[-1]} players)")
    if len(set(value)) != len(value):
        raise bad(f"{value} names a table size twice")
    unmet = [n for n in value if n not in trained_at]
    if unmet and model != "seats":
        raise bad(f"{unmet[0]} players: a {model!r} network reads the one table it trained at "
                  f"({trained_at[0]}); scoring at other sizes needs model 'seats'")
    return tuple(value)
