"""Shared fixtures: the third-party corpus of the Rust crate and a seeded RNG."""

import pathlib
import random

import pytest

CORPUS = pathlib.Path(__file__).resolve().parents[2] / "crates" / "primekit" / "tests" / "data" / "vectors.tsv"


def corpus_rows():
    """(value, is_prime) for every row of vectors.tsv (value, expected, sources, notes)."""
    rows = []
    for line in CORPUS.read_text().splitlines():
        value, expected = line.split("\t")[:2]
        assert expected in ("prime", "composite"), line
        rows.append((int(value), expected == "prime"))
    return rows


@pytest.fixture
def rng():
    seed = random.randrange(2**32)
    print(f"rng seed {seed}")  # shown on failure, to reproduce
    return random.Random(seed)
