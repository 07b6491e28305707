"""Time of scoring one long response, against a bare spaCy parse of the same texts.

For response lengths of 10k, 100k and 1M characters (default; pass others as
arguments) this builds a response and a context of varied product sentences
(numbers, prices, dates, claims), then times, in this process:

- ``evaltools.score(query, context, response)`` (everything: parse, anchors,
  claims, relevance, drift), and
- a bare ``nlp(context)`` + ``nlp(response)`` with the same pipeline,

and prints seconds, characters per second and the ratio of the two. Scoring is
linear in text length when seconds grow like length (x10 per step) and the
ratio stays flat; a quadratic step shows as the ratio growing with length.
1,000,000 characters is the longest text accepted (``[input] max_text_chars``,
spaCy's own limit). Run: ``python benchmarks/long_text.py [CHARS ...]``.
Figures depend on the machine; nothing here is asserted.
"""

from __future__ import annotations

import random
import sys
import time

BRANDS = ["Hydro Flask", "Yeti", "Stanley", "Owala", "Contigo", "Lodge", "Ninja", "Anker"]
ITEMS = ["tumbler", "water bottle", "cooler", "skillet", "blender", "power bank"]
MONTHS = ["January", "March", "May", "August", "October", "December"]


def sentence(rng: random.Random) -> str:
    b, i = rng.choice(BRANDS), rng.choice(ITEMS)
    return rng.choice([
        f"The {b} {i} costs ${rng.randint(5, 400)}.{rng.randint(0, 99):02d}.",
        f"{b} released the {i} on {rng.choice(MONTHS)} {rng.randint(1, 28)}, "
        f"{rng.randint(2015, 2025)}.",
        f"The {i} from {b} holds {rng.randint(8, 64)} oz and weighs {rng.randint(1, 9)} pounds.",
        f"{b} makes a {i} with a lifetime warranty.",
        f"Customers say the {b} {i} keeps drinks cold for {rng.randint(6, 48)} hours.",
    ])


def text(chars: int, seed: int) -> str:
    rng = random.Random(seed)
    parts, n = [], 0
    while n < chars:
        s = sentence(rng)
        parts.append(s)
        n += len(s) + 1
    return " ".join(parts)[:chars]


def main(sizes: list[int]) -> None:
    from evaltools import score
    from evaltools.text import load_pipeline

    nlp = load_pipeline()
    score("warm up", "warm up text", "warm up")
    print(f"{'chars':>9}  {'score s':>8}  {'bare s':>7}  {'ratio':>5}  {'chars/s':>9}")
    for n in sizes:
        response, context = text(n, 1), text(n, 2)
        query = "What does the Yeti tumbler cost and when was it released?"
        t0 = time.perf_counter()
        nlp(context)
        nlp(response)
        bare = time.perf_counter() - t0
        t0 = time.perf_counter()
        result = score(query, context, response)
        took = time.perf_counter() - t0
        assert result.error is None and 0 <= result.hallucination <= 1
        print(f"{n:>9,}  {took:8.2f}  {bare:7.2f}  {took / bare:5.2f}  {n / took:9,.0f}",
              flush=True)


if __name__ == "__main__":
    main([int(a) for a in sys.argv[1:]] or [10_000, 100_000, 1_000_000])
