"""Shared fixtures: the third-party corpus of the Rust crate, a seeded RNG, the CLI."""

import json
import os
import pathlib
import random
import subprocess

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


@pytest.fixture(scope="session")
def cli():
    """The primekit CLI to compare with: $PRIMEKIT (the test command exports it)."""
    path = os.environ.get("PRIMEKIT")
    if not path or not os.access(path, os.X_OK):
        pytest.skip("no CLI to compare with: set PRIMEKIT to the primekit binary (the test command exports it)")
    return path


def cli_json(cli, *args):
    """`primekit ARGS --json`: (the one JSON object printed, exit status)."""
    out = subprocess.run([cli, *map(str, args), "--json"], capture_output=True, text=True, timeout=600)
    assert out.stdout.count("\n") == 1, (args, out.stdout, out.stderr)
    return json.loads(out.stdout), out.returncode
