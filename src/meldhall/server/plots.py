"""Rating history plots drawn on the server as SVG (no plotting service, nothing drawn by the
page): a line through the rating after each rated match, its lowest and highest values marked.
"""

from __future__ import annotations

from collections.abc import Sequence
from xml.sax.saxutils import escape, quoteattr

WIDTH, HEIGHT = 480, 160
PAD = 32


def rating_svg(ratings: Sequence[int], title: str) -> str:
    """Return an SVG document plotting ``ratings`` (the rating after each match, oldest
    first) with ``title`` as its accessible name; with no ratings, an empty frame that says so
    in its title.

    >>> "<polyline" in rating_svg([1000, 1040, 1010], "okey")
    True
    >>> "<polyline" in rating_svg([], "none")
    False
    """
    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {WIDTH} {HEIGHT}" '
        f'width="{WIDTH}" height="{HEIGHT}" role="img" aria-label={quoteattr(title)} '
        'class="rating-plot">',
        f"<title>{escape(title)}</title>",
        f'<rect x="{PAD}" y="8" width="{WIDTH - PAD - 8}" height="{HEIGHT - PAD - 8}" '
        'fill="none" stroke="currentColor" stroke-opacity="0.3"/>',
    ]
    if ratings:
        low, high = min(ratings), max(ratings)
        span = max(high - low, 1)
        inner_w, inner_h = WIDTH - PAD - 16, HEIGHT - PAD - 16
        step = inner_w / max(len(ratings) - 1, 1)
        points = [
            (PAD + 4 + i * step, 12 + inner_h - (r - low) / span * inner_h)
            for i, r in enumerate(ratings)
        ]
        path = " ".join(f"{x:.1f},{y:.1f}" for x, y in points)
        parts.append(f'<polyline points="{path}" fill="none" stroke="#1f6f5c" stroke-width="2"/>')
        parts.extend(
            f'<circle cx="{x:.1f}" cy="{y:.1f}" r="2.5" fill="#1f6f5c"/>' for x, y in points
        )
        parts.append(
            f'<text x="{PAD - 4}" y="16" text-anchor="end" font-size="10" '
            f'fill="currentColor">{high}</text>'
        )
        parts.append(
            f'<text x="{PAD - 4}" y="{HEIGHT - PAD}" text-anchor="end" font-size="10" '
            f'fill="currentColor">{low}</text>'
        )
        parts.append(
            f'<text x="{WIDTH - 8}" y="{HEIGHT - 10}" text-anchor="end" font-size="10" '
            f'fill="currentColor">{len(ratings)}</text>'
        )
    parts.append("</svg>")
    return "".join(parts)
