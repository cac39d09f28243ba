"""The message catalogs agree with the English source: the same messages, the same `_you`
forms, every placeholder of the source, and the plural variants each language needs.

A message with variants is stored as `key.one`, `key.few`, `key.many`, `key.other` (CLDR
plural categories, chosen in the browser by Intl.PluralRules); `key_you` is the form used
when the person spoken about is the reader."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

CATALOGS = Path(__file__).resolve().parents[1] / "src" / "meldhall" / "web" / "i18n"
SOURCE = "en"
TRANSLATIONS = ["tr", "ru", "ro", "zh"]

# The CLDR plural categories of whole numbers in each language (the counts on the table are
# whole; "other" is also the fallback the browser uses for any other number).
PLURALS: dict[str, set[str]] = {
    "en": {"one", "other"},
    "tr": {"one", "other"},
    "ru": {"one", "few", "many", "other"},
    "ro": {"one", "few", "other"},
    "zh": {"other"},
}
CATEGORIES = {"zero", "one", "two", "few", "many", "other"}

# The placeholders that hold a count and choose a plural variant (the order t() uses).
COUNTS = ("count", "n", "points")

# Messages whose number is a label or an ordinal, with no word that agrees with it:
# "Round 3", "Wall: 47", "set: +30".
LABELS = {
    "seat.bot",
    "replay.step",
    "replay.hand",
    "replay.person",
    "review.running",
    "factor.per_tile",
    "factor.base",
    "factor.credit",
    "factor.each",
    "factor.joker_finish",
    "factor.winner_pairs",
    "factor.pairs",
    "factor.finish",
    "factor.from_hand",
    "rummy.part_table",
    "rummy.part_collected",
    "rummy.part_own_rack",
    "scores.round",
    "scores.hand",
    "scores.current",
    "scores.deal",
    "okey.pile",
    "ladder.need",
    "ladder.pairs_need",
    "ladder.base",
    "ladder.round",
    "ladder.base_line",
    "rummy.round",
    "rummy.pile",
    "remi.pile",
    "remi.stock",
    "remi.hand",
    "mj.wall",
    "mj.deal",
    "cards.deck",
    "cards.discards",
    "cards.score",
    "cards.combo_set",
    "cards.combo_run",
    "cards.combo_run_colour",
    "cards.combo_n",
    "online.seconds",
    "online.people",
    "online.starting",
    "online.next_hand_in",
    "online.your_time",
    "online.their_time",
}

PLACEHOLDER = re.compile(r"\{(\w+)\}")


def load(lang: str) -> dict[str, str]:
    """Return the catalog of a language."""
    data = json.loads((CATALOGS / f"{lang}.json").read_text(encoding="utf-8"))
    assert isinstance(data, dict)
    return data


def split(key: str) -> tuple[str, str | None]:
    """Return (message, plural category or None) of a catalog key."""
    base, _, last = key.rpartition(".")
    if base and last in CATEGORIES:
        return base, last
    return key, None


def messages(catalog: dict[str, str]) -> dict[str, dict[str | None, str]]:
    """Return the catalog grouped by message: {message: {category or None: text}}."""
    out: dict[str, dict[str | None, str]] = {}
    for key, text in catalog.items():
        base, category = split(key)
        out.setdefault(base, {})[category] = text
    return out


def placeholders(variants: dict[str | None, str]) -> set[str]:
    """Return every placeholder used by the variants of one message."""
    return {name for text in variants.values() for name in PLACEHOLDER.findall(text)}


@pytest.mark.parametrize("lang", [SOURCE, *TRANSLATIONS])
def test_every_value_is_a_non_empty_string(lang: str) -> None:
    bad = [k for k, v in load(lang).items() if not isinstance(v, str) or not v.strip()]
    assert not bad


@pytest.mark.parametrize("lang", TRANSLATIONS)
def test_a_catalog_has_the_messages_and_you_forms_of_the_source(lang: str) -> None:
    source = set(messages(load(SOURCE)))
    mine = set(messages(load(lang)))
    assert not source - mine, f"{lang} lacks {sorted(source - mine)}"
    assert not mine - source, f"{lang} has messages the source lacks: {sorted(mine - source)}"


@pytest.mark.parametrize("lang", [SOURCE, *TRANSLATIONS])
def test_a_message_has_plural_variants_or_none(lang: str) -> None:
    wrong = {}
    for base, variants in messages(load(lang)).items():
        categories = set(variants)
        if categories == {None}:
            continue
        if None in categories or categories != PLURALS[lang]:
            wrong[base] = sorted(str(c) for c in categories)
    assert not wrong, f"{lang}: variants must be exactly {sorted(PLURALS[lang])}: {wrong}"


@pytest.mark.parametrize("lang", TRANSLATIONS)
def test_both_catalogs_pluralise_the_same_messages(lang: str) -> None:
    source = {b for b, v in messages(load(SOURCE)).items() if None not in v}
    mine = {b for b, v in messages(load(lang)).items() if None not in v}
    assert source == mine, f"{lang}: {sorted(source ^ mine)}"


@pytest.mark.parametrize("lang", TRANSLATIONS)
def test_every_placeholder_of_the_source_is_in_every_variant(lang: str) -> None:
    source = messages(load(SOURCE))
    missing = {}
    for base, variants in messages(load(lang)).items():
        want = placeholders(source.get(base, {}))
        for category, text in variants.items():
            lost = want - set(PLACEHOLDER.findall(text))
            extra = set(PLACEHOLDER.findall(text)) - want
            if lost or extra:
                missing[f"{base}.{category}"] = sorted(lost | extra)
    assert not missing, f"{lang}: placeholders differ from the source: {missing}"


@pytest.mark.parametrize("lang", [SOURCE, *TRANSLATIONS])
def test_a_counted_message_has_the_plural_variants_of_its_language(lang: str) -> None:
    lacking = []
    for base, variants in messages(load(lang)).items():
        message = base.removesuffix("_you")
        if message in LABELS or not placeholders(variants) & set(COUNTS):
            continue
        if None in variants:
            lacking.append(base)
    assert not lacking, f"{lang}: counted messages without plural variants: {lacking}"


def test_the_labels_exist() -> None:
    source = messages(load(SOURCE))
    assert set(source) >= LABELS, sorted(LABELS - set(source))


def test_no_plural_category_is_wrong_for_a_language() -> None:
    """Russian "1 плиток" or Romanian "21 piese": the text of a category agrees with it."""
    ru = load("ru")
    assert ru["seat.tiles.one"].endswith("плитка") and ru["seat.tiles.many"].endswith("плиток")
    ro = load("ro")
    assert "de" not in ro["seat.tiles.few"].split() and "de" in ro["seat.tiles.other"].split()


@pytest.mark.parametrize("lang", [SOURCE, *TRANSLATIONS])
def test_no_page_shows_internal_text(lang: str) -> None:
    rules = CATALOGS.parent / "rules"
    texts = [*load(lang).values()]
    for path in rules.glob(f"*.{lang}.json"):
        texts.append(path.read_text(encoding="utf-8"))
    internal = re.compile(r"\bseed 0\d\d\b|\bTODO\b|\bFIXME\b", re.IGNORECASE)
    assert not [t for t in texts if internal.search(t)]
