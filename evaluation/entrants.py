"""Policies by name: what the evaluation commands accept, checked before any game is played.

An entrant is written ``SOURCE`` or ``LABEL@SOURCE``. ``SOURCE`` is any name that
``agents.make_policy`` knows (``random``, ``heuristic``, the scripted bots), the path of a
trained checkpoint (``.pt``), a shipped one ``zoo:NAME`` (``agents.zoo``), or an outside
policy ``py:module:attr`` (``agents.outside``), or a language model ``llm:MODEL@BASE_URL``
(``agents.text.llm``; its URL's ``@`` is told apart from the label's, so ``llm:m@http://h/v1``
and ``mine@llm:m@http://h/v1`` both read); ``LABEL`` names it in tables and in the results
database, so two checkpoints called ``crew.pt`` from different runs can stand side by side
(``a@runA/crew.pt``).

Everything that can be refused is refused here, in the calling process, before a game is
played or a file written: an unknown name, an unreadable checkpoint, one trained for another
game, version, parameter set or observation layout, a checkpoint asked to play a team it was
not trained for. Workers rebuild the policy from the entrant (a plain, picklable record) and
refuse a checkpoint file that changed since it was checked.
"""

from __future__ import annotations

import hashlib
import importlib
import inspect
from dataclasses import dataclass, replace
from pathlib import Path

from agents import make_policy, zoo
from agents.outside import is_outside, source_digest
from agents.text.llm import split_entrant
from agents.checkpoint import CheckpointError, check_compatible, load_checkpoint
from agents.policy import Policy
from envs.core.spec import GameSpec


def free_for_all(spec: GameSpec) -> bool:
    """Each seat plays for itself: games are ranked by the seats' final rewards, not by a
    winning team. Said by ``spec.extra["free_for_all"]`` where a game sets it; otherwise a game
    with at most one team, or whose teams are its seats (``player_0 .. player_{max-1}``, as
    MANIACAL declares them), is one."""
    if "free_for_all" in spec.extra:
        return bool(spec.extra["free_for_all"])
    seats = tuple(f"player_{i}" for i in range(spec.max_players))
    return len(spec.teams) <= 1 or tuple(spec.teams) == seats


def roles(spec: GameSpec) -> tuple[str, ...]:
    """What a policy can be asked to play: a team, or ``player`` in a free-for-all game."""
    return ("player",) if free_for_all(spec) else tuple(spec.teams)


def is_checkpoint(source: str) -> bool:
    return Path(source).suffix == ".pt"


@dataclass(frozen=True)
class Entrant:
    label: str  # the name in tables and in the database
    source: str  # a make_policy name, or a checkpoint path
    roles: tuple[str, ...]  # the roles (teams, or "player") it may play
    # what the label means: "sha256:..." of a checkpoint file, or "name:heuristic@sha256:..."
    # with the digest of the scripted bot's source file
    identity: str
    greedy: bool = False  # a checkpoint takes its most likely action instead of sampling

    @property
    def checkpoint(self) -> bool:
        return self.identity.startswith("sha256:")

    def build(self, spec: GameSpec, params: dict, seed: int) -> Policy:
        """The policy itself, in whichever process plays the games."""
        if self.checkpoint:
            from agents.neural import load_policy

            found = file_digest(self.source)
            if found != self.identity.removesuffix(GREEDY):
                raise CheckpointError(
                    f"{self.source}: the file changed since it was checked ({found} != "
                    f"{self.identity}); workers must see the same checkpoint file"
                )
            policy = load_policy(self.source, game=spec.name, greedy=self.greedy, seed=seed,
                                 **params)
        else:
            policy = make_policy(self.source, spec, params, seed)
        policy.name = self.label
        return policy


def file_digest(path: str | Path) -> str:
    h = hashlib.sha256()
    with open(path, "rb") as f:
        for block in iter(lambda: f.read(1 << 20), b""):
            h.update(block)
    return "sha256:" + h.hexdigest()


def resolve(text: str, spec: GameSpec, params: dict) -> Entrant:
    """Check one ``SOURCE`` or ``LABEL@SOURCE`` against this game and parameter set."""
    if not isinstance(text, str) or not text.strip():
        raise ValueError(f"a policy must be a name or LABEL@SOURCE, got {text!r}")
    label, sep, source = text.strip().partition("@")
    if not sep:
        label, source = text.strip(), text.strip()
    model = split_entrant(text.strip())
    if model is not None:
        label, source = model
    if not label or not source:
        raise ValueError(f"{text!r}: expected LABEL@SOURCE with both parts non-empty")
    if "," in label:
        raise ValueError(f"{text!r}: a policy label may not contain ','")
    if not label.isprintable():
        raise ValueError(f"{text!r}: a policy label must be printable (no control characters)")
    params = spec.resolve(**params)
    game_roles = roles(spec)
    if zoo.is_zoo(source):  # a shipped checkpoint: played from its file, checked by its digest
        source = str(zoo.path(source))
    if is_checkpoint(source):
        metadata = load_checkpoint(source)["metadata"]
        check_compatible(metadata, spec.name, params, source)
        team = metadata.get("team")
        plays = (team,) if team in game_roles else game_roles  # "shared": every role
        return Entrant(label, source, plays, file_digest(source))
    policy = make_policy(source, spec, params, 0)  # refuses an unknown name
    # a scripted bot written for one side says so (``team = "menace"``, or ``teams``)
    team = getattr(policy, "team", None)
    plays = getattr(policy, "teams", None) or ((team,) if isinstance(team, str) else game_roles)
    unknown = sorted(set(plays) - set(game_roles))
    if unknown:
        raise ValueError(f"{source}: claims to play {unknown}, not roles of {spec.name}")
    digest = source_digest(source) if is_outside(source) else code_digest(policy)
    return Entrant(label, source, tuple(plays), f"name:{source}@{digest}")


# what a greedy entrant's identity ends with: greedy and sampled play of one checkpoint are two
# policies, and a results database must not pool their games under one label
GREEDY = "+greedy"


def played_greedy(entrant: Entrant) -> Entrant:
    """The same checkpoint taking its most likely action at every decision, under an identity
    of its own (the file's digest then ``GREEDY``). Only a trained policy has the choice: a
    scripted bot plays as it is written."""
    if not entrant.checkpoint:
        raise ValueError(f"greedy: {entrant.source!r} is not a checkpoint; only a trained policy "
                         f"chooses between sampling and its most likely action")
    if entrant.greedy:
        return entrant
    return replace(entrant, greedy=True, identity=entrant.identity + GREEDY)


def code_digest(policy: Policy) -> str:
    """SHA-256 of the source file that defines a scripted policy's class: part of its
    identity, so that games of an edited bot are never rated together with the old bot's. A
    policy whose play is written in other files too names their modules in ``code_modules``
    (a text player's prompt and reply parser live beside its class); they join the digest."""
    source = inspect.getsourcefile(type(policy))
    if not source:
        return "sha256:unknown"
    extra = getattr(policy, "code_modules", ())
    if not extra:
        return file_digest(source)
    h = hashlib.sha256()
    for path in (source, *(inspect.getsourcefile(importlib.import_module(m)) for m in extra)):
        h.update(file_digest(path).encode())
    return "sha256:" + h.hexdigest()


def resolve_all(texts: list[str], spec: GameSpec, params: dict) -> list[Entrant]:
    """Several entrants; one label may not stand for two different policies."""
    out: dict[str, Entrant] = {}
    for text in texts:
        entrant = resolve(text, spec, params)
        seen = out.get(entrant.label)
        if seen is not None and seen.identity != entrant.identity:
            raise ValueError(
                f"label {entrant.label!r} names two policies ({seen.source}, {entrant.source}); "
                f"give each its own LABEL@SOURCE"
            )
        out[entrant.label] = entrant
    return list(out.values())


def shown(label: str) -> str:
    """A label read from a file, fit for a terminal or a page: control characters (a terminal
    escape sequence in a hostile database) written as escapes."""
    return label if label.isprintable() else repr(label)[1:-1]


def split_list(text: str) -> list[str]:
    """``A,B,C`` as the command line gives it (empty items refused)."""
    items = [t.strip() for t in text.split(",")]
    if not all(items):
        raise ValueError(f"empty policy name in {text!r}")
    return items
