"""Types of the audit reports of check_dh and check_rsa.

A report is a plain dict (``json.dumps(report)`` is the CLI's ``--json`` object less
``command`` and ``file``); these TypedDicts name its keys for type checkers.
"""

from typing import Literal, TypedDict

Status = Literal["pass", "warn", "fail", "skip"]
"""A check's verdict: "skip" is a check not evaluated because one it needs failed."""


class Check(TypedDict):
    """One audited property."""

    name: str
    """Stable name (docs/files.md lists them), e.g. "p_prime"."""
    status: Status
    passed: bool
    """True for "pass" and "warn"."""
    detail: str
    """Human explanation; may be reworded between versions."""


class CheckReport(TypedDict):
    """All checks of one PEM text, in a fixed order."""

    format: Literal["pkcs3", "x9.42", "pkcs1", "pkcs8"]
    ok: bool
    """True iff every check passed (warnings allowed)."""
    checks: list[Check]
