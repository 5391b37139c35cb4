"""The variants' facts for offline tests, from the shared view fixtures' ``info`` (the same
``/api/variants`` entries a connected session reads)."""

import json
import pathlib

from parlor_bot import View
from parlor_bot.facts import Facts

FIXTURES = pathlib.Path(__file__).resolve().parents[3] / "tests" / "fixtures" / "views"


def facts_for(variant: str) -> Facts:
    info = json.loads((FIXTURES / f"{variant}.json").read_text())["info"]
    return Facts.from_json(info["facts"])


def view_from(msg) -> View:
    """``View.from_state`` with the facts of the snapshot's variant."""
    variant = msg.get("view", msg)["variant"]
    return View.from_state(msg, facts_for(variant))
