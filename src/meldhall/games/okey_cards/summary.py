"""Per-game summaries of many finished games (for ``meldhall simulate``).

>>> reward_shares([290, 300, 390, 400, 560])
{'bronze': 0.2, 'silver': 0.4, 'gold': 0.4}
>>> reward_line([290, 300, 390, 400, 560])
'reward tiers (300/400) over 5 games: bronze 20.00%, silver 40.00%, gold 40.00%'
"""

from __future__ import annotations

from collections.abc import Sequence

from meldhall.games.okey_cards.scoring import TIERS, reward


def reward_shares(
    scores: Sequence[int], thresholds: tuple[int, int] = (300, 400)
) -> dict[str, float]:
    """Return the share (0..1) of ``scores`` in each reward tier, bronze first."""
    counts = dict.fromkeys(TIERS, 0)
    for score in scores:
        counts[reward(score, thresholds)] += 1
    total = len(scores) or 1
    return {tier: counts[tier] / total for tier in TIERS}


def reward_line(scores: Sequence[int], thresholds: tuple[int, int] = (300, 400)) -> str:
    """Return one line with the share of ``scores`` reaching each reward tier."""
    shares = reward_shares(scores, thresholds)
    parts = ", ".join(f"{tier} {share:.2%}" for tier, share in shares.items())
    return f"reward tiers ({thresholds[0]}/{thresholds[1]}) over {len(scores)} games: {parts}"
