"""``meldhall bench cards-expert``: the okey-cards expert against perfect information.

Over the tournament's decks (``--seed tournament``: ``meldhall tournament okey-cards``'s deals 0,
1, ...; ``--cases N`` decks): the score of the fitted value model alone (the expert before its
look-ahead), of the ``expert`` (one draw of look-ahead) and the perfect-information optimum
(``ceiling.DeckSolver``), paired on each deck: the means with 95 % confidence intervals, the
expert's gain over the model, and the expert's share of perfect information against the
issue's 97 %. ``meldhall bench cards-bound`` adds the honest upper bound (slow).
"""

from __future__ import annotations

import argparse
import statistics

from meldhall.bench.cards_bound import GOAL, deck_of, fmt_ci, play_keeps
from meldhall.bots.ceiling import DeckSolver
from meldhall.bots.okey_cards_lookahead import lookahead_keep
from meldhall.bots.okey_cards_values import ModelValues
from meldhall.games.okey_cards.planner import best_keep
from meldhall.games.okey_cards.scoring import ScoreTable


def main(args: argparse.Namespace) -> int:
    """Print one line per deck and the paired summary (module docstring); return 0."""
    decks = args.cases or 100
    table: ScoreTable = "current"
    values = ModelValues(table)
    rows: list[tuple[int, int, int]] = []
    print("deal  model  expert  perfect")
    for deal in range(decks):
        deck = deck_of(args.seed, deal)
        model = play_keeps(deck, best_keep, table)
        expert = play_keeps(deck, lambda pos: lookahead_keep(pos, values), table)
        perfect = DeckSolver(deck, table, False).value(0, 0)
        rows.append((model, expert, perfect))
        print(f"{deal:4d}  {model:5d}  {expert:6d}  {perfect:7d}", flush=True)
    model_s, expert_s, perfect_s = (list(col) for col in zip(*rows, strict=True))
    print(f"decks {decks} (seed {args.seed!r})")
    print(f"model alone (old expert): {fmt_ci(model_s)}")
    print(f"expert (look-ahead):      {fmt_ci(expert_s)}")
    print(f"perfect information:      {fmt_ci(perfect_s)}")
    print(f"expert - model:           {fmt_ci([e - m for m, e, _ in rows])}")
    print(f"expert - {GOAL:.2f} x perfect:  {fmt_ci([e - GOAL * p for _, e, p in rows])}")
    share = statistics.fmean(expert_s) / statistics.fmean(perfect_s)
    print(f"expert / perfect:         {share:.3f} (goal {GOAL:.2f})")
    return 0
