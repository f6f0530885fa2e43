"""Shared test setup: the suite reads English output unless a test picks a language, whatever
the locale of the machine running it (the terminal game follows $LANG)."""

from __future__ import annotations

import os

os.environ["ONO99_LANG"] = "en"
