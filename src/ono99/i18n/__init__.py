"""ono99 in six languages: gettext catalogs (via Babel), language choice, the rules pages.

The engine never speaks a language; the terminal game and the browser client turn its
events, card names and refusals into sentences here, each for its own reader (``words.py``).
"""

from .catalog import MINUS, Translator, fill, load_catalog, number_text, translator
from .languages import (
    DEFAULT,
    LANGUAGES,
    UnknownLanguageError,
    from_accept_language,
    from_environment,
    parse_language,
)
from .rules import rules_markdown
from .words import card_label, cards_text, option_label, refusal_text

__all__ = [
    "DEFAULT",
    "LANGUAGES",
    "MINUS",
    "Translator",
    "UnknownLanguageError",
    "card_label",
    "cards_text",
    "fill",
    "from_accept_language",
    "from_environment",
    "load_catalog",
    "number_text",
    "option_label",
    "parse_language",
    "refusal_text",
    "rules_markdown",
    "translator",
]
