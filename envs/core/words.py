"""What the games' render modules share when they put a game into words for a person."""

from __future__ import annotations


def _key(name: str) -> str:
    """A card's name as a person may type it: any case, with or without spaces and marks."""
    return "".join(ch for ch in name.lower() if ch.isalnum())


def card_lookup(name: str, texts: dict[str, str], game: str) -> str:
    """The text of the card ``name`` from ``texts`` (card name -> its text). An unknown name is
    one clear error naming the cards whose names contain what was typed, or all of them."""
    wanted = _key(name)
    by_key = {_key(card): card for card in texts}
    if wanted in by_key:
        card = by_key[wanted]
        return f"{card}: {texts[card]}"
    near = [card for key, card in by_key.items() if wanted and wanted in key]
    if len(near) == 1:
        return f"{near[0]}: {texts[near[0]]}"
    choices = near or sorted(texts)
    if not wanted:
        raise ValueError(f"give a card's name; {game} has: {', '.join(choices)}")
    raise ValueError(f"no card named {name!r} in {game}; try one of: {', '.join(choices)}")
