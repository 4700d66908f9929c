"""A made-up room word for the online menu ("amber-otter-417"): easy to read aloud and to
type on a phone, and with 1.8 million of them, not one a stranger hits by trying the
common ones (anyone who knows a room word can join or watch its room: docs/ONLINE.md)."""

from __future__ import annotations

import random

COLOURS = ("amber", "azure", "black", "blue", "bronze", "coral", "crimson", "cyan", "gold",
           "green", "grey", "indigo", "ivory", "jade", "lemon", "lilac", "lime", "navy",
           "olive", "orange", "pearl", "pink", "plum", "red", "ruby", "rust", "sage", "sand",
           "silver", "teal", "violet", "white")

ANIMALS = ("badger", "bear", "bison", "crane", "crow", "deer", "eagle", "falcon", "fox",
           "gecko", "hare", "hawk", "heron", "ibis", "koala", "lark", "lion", "lynx", "mole",
           "moose", "otter", "owl", "panda", "puffin", "raven", "seal", "shrew", "stoat",
           "swan", "tiger", "wolf", "yak", "zebra", "finch", "mink", "newt", "orca", "pika",
           "quail", "robin", "sloth", "tapir", "trout", "viper", "wren", "bat", "boar", "carp",
           "dingo", "egret", "frog", "goat", "gull", "ibex", "kiwi", "lemur", "llama", "mouse",
           "okapi", "otter", "seal", "snail", "toad", "vole", "whale")

# no two entries alike: a repeated animal would make its words twice as likely
ANIMALS = tuple(dict.fromkeys(ANIMALS))


def make_room_word(rng: random.Random | None = None) -> str:
    """A word like "teal-heron-582" (``rng``: a seeded one in tests; else the system's
    randomness, which the page's Pyodide draws from crypto.getRandomValues)."""
    rng = rng or random.SystemRandom()
    return f"{rng.choice(COLOURS)}-{rng.choice(ANIMALS)}-{rng.randrange(100, 1000)}"
