"""The engine's shipped card data (JSON files beside this module).

This is the engine's only contact with files: each data file is read once,
on first use, from the installed package and validated by its game's
pydantic schema. Rules code works on the validated, immutable result.
"""

from __future__ import annotations

import json
from functools import cache
from importlib import resources
from typing import Any


@cache
def load_json(name: str) -> Any:
    """The parsed content of ``engine/data/<name>``."""
    text = resources.files(__package__).joinpath(name).read_text(encoding="utf-8")
    return json.loads(text)
