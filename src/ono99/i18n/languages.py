"""The languages ono99 speaks, and how a terminal or a browser picks one."""

from __future__ import annotations

import os
from collections.abc import Iterable, Mapping

# Code → the language's own name, as a picker shows it. English is the source language.
LANGUAGES: dict[str, str] = {
    "en": "English",
    "el": "Ελληνικά",
    "mr": "मराठी",
    "es": "Español",
    "vi": "Tiếng Việt",
    "hy": "Հայերեն",
}
DEFAULT = "en"

# Where POSIX looks for the messages language, most specific first (gettext's own order).
_LOCALE_VARIABLES = ("LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG")


class UnknownLanguageError(ValueError):
    """A language code ono99 has no catalog for; the message lists the ones it has."""

    def __init__(self, code: str) -> None:
        known = ", ".join(f"{c} ({name})" for c, name in LANGUAGES.items())
        super().__init__(f"unknown language {code!r}; known: {known}")
        self.code = code


def normalize(tag: str) -> str | None:
    """The supported language of a locale or language tag ("mr_IN.UTF-8", "es-419",
    "hy"), or None. "C" and "POSIX" mean no preference."""
    base = tag.strip().split(".")[0].split("@")[0].replace("-", "_").split("_")[0].lower()
    return base if base in LANGUAGES else None


def parse_language(code: str) -> str:
    """``code`` as a supported language, or ``UnknownLanguageError``."""
    lang = normalize(code)
    if lang is None:
        raise UnknownLanguageError(code)
    return lang


def from_environment(environ: Mapping[str, str] | None = None) -> str:
    """The language the environment's locale asks for, like gettext reads it; English when
    it names none ono99 has."""
    env = os.environ if environ is None else environ
    for name in _LOCALE_VARIABLES:
        value = env.get(name, "")
        if not value:
            continue
        for tag in value.split(":") if name == "LANGUAGE" else (value,):
            lang = normalize(tag)
            if lang is not None:
                return lang
        if name != "LANGUAGE":
            return DEFAULT  # the first set variable decides, as in gettext
    return DEFAULT


def from_accept_language(header: str | None) -> str:
    """The best supported language for an HTTP Accept-Language header."""
    choices: list[tuple[float, int, str]] = []
    for i, part in enumerate((header or "").split(",")):
        tag, _, params = part.strip().partition(";")
        quality = 1.0
        for param in params.split(";"):
            key, _, value = param.strip().partition("=")
            if key == "q":
                try:
                    quality = float(value)
                except ValueError:
                    quality = 0.0
        lang = normalize(tag) if tag and tag != "*" else None
        if lang is not None and quality > 0:
            choices.append((-quality, i, lang))
    return min(choices)[2] if choices else DEFAULT


def ordered(codes: Iterable[str]) -> list[str]:
    """``codes`` in the order of LANGUAGES."""
    wanted = set(codes)
    return [c for c in LANGUAGES if c in wanted]
