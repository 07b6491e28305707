"""Which context words are near a response word in meaning: static word vectors.

The vectors are wordllama's (``wordllama==0.4.0.post1``, MIT): 256-dimensional
token embeddings and their tokenizer, shipped inside its wheel. wordllama's own
``WordLlama.load()`` looks for the tokenizer in a folder the wheel does not have
and then tries to download it, so :func:`_table` reads the two shipped files with
the libraries wordllama itself uses (``safetensors``, ``tokenizers``); nothing is
fetched, ever. A word's vector is the mean of its tokens' vectors, scaled to
length 1 (:func:`vector`).

The matcher (:meth:`evaltools.scoring.matcher.SentenceIndex.paraphrase_positions`)
counts a context word within cosine ``grounding.paraphrase_cosine`` of a response
word as its paraphrase, beside WordNet's table: *toxic* is found as *harmful*,
*crash* as *collision*. Which words take part, and why, is there; what it
changes on the development sets is in ``docs/validity.md`` ("Thirteenth round").

Examples
--------
>>> v = vector("purchased")
>>> v.shape, round(float(v @ v), 3)
((256,), 1.0)
>>> near("purchased", ["bought", "sold", "table"], 0.5)
('bought',)
"""

from __future__ import annotations

import functools
from collections.abc import Sequence
from pathlib import Path

import numpy as np

#: The wheel's files, relative to the ``wordllama`` package.
WEIGHTS = Path("weights") / "l2_supercat_256.safetensors"
TOKENIZER = Path("tokenizers") / "l2_supercat_tokenizer_config.json"


@functools.lru_cache(maxsize=1)
def _table():
    """(tokenizer, token vectors) from the files wordllama's wheel ships, found without
    importing wordllama (whose package imports its model code, pydantic among it)."""
    import importlib.util

    spec = importlib.util.find_spec("wordllama")
    try:
        from safetensors import safe_open
        from tokenizers import Tokenizer

        if spec is None or not spec.submodule_search_locations:
            raise ImportError("No module named 'wordllama'")
    except ImportError as exc:  # a runtime dependency; named in one line if it is missing
        raise RuntimeError("grounding.paraphrase_cosine needs wordllama==0.4.0.post1 "
                           f"(pip install 'wordllama==0.4.0.post1'): {exc}") from None
    home = Path(spec.submodule_search_locations[0])
    with safe_open(str(home / WEIGHTS), framework="np") as f:
        table = f.get_tensor("embedding.weight")  # float16 as shipped: 16 MB
    table.setflags(write=False)
    tok = Tokenizer.from_file(str(home / TOKENIZER))
    tok.no_padding()
    tok.no_truncation()
    return tok, table


@functools.lru_cache(maxsize=100_000)
def _ids(key: str) -> tuple[int, ...]:
    """The tokenizer's ids of one word ``key``, read once for its vector and its tokens."""
    return tuple(_table()[0].encode(key, add_special_tokens=False).ids)


def _unit_mean(ids: Sequence[int]) -> np.ndarray:
    """The mean of the vectors of token ``ids``, scaled to length 1 (zeros for none)."""
    table = _table()[1]
    if not ids:
        return np.zeros(table.shape[1], np.float32)
    out = table[list(ids)].mean(axis=0, dtype=np.float32)
    norm = np.linalg.norm(out)
    return out / norm if norm else out


@functools.lru_cache(maxsize=50_000)  # at most 50 MB of vectors
def vector(key: str) -> np.ndarray:
    """The unit vector of one word ``key``, read-only, as it is shared by every caller
    through the cache."""
    out = _unit_mean(_ids(key))
    out.setflags(write=False)
    return out


def tokens(key: str) -> frozenset[int]:
    """The tokenizer's ids of one word ``key``: two words sharing one are close in vectors
    for the shared piece (*shipwright*, *ship*), whatever they mean."""
    return frozenset(_ids(key))


def text_vectors(texts: Sequence[str]) -> np.ndarray:
    """One row per text: the mean of its tokens' vectors, scaled to length 1 (zeros for a
    text with no token)."""
    tok, table = _table()
    out = np.zeros((len(texts), table.shape[1]), np.float32)
    for i, enc in enumerate(tok.encode_batch(list(texts), add_special_tokens=False)):
        out[i] = _unit_mean(enc.ids)
    return out


@functools.lru_cache(maxsize=64)
def matrix(keys: tuple[str, ...]) -> np.ndarray:
    """The vectors of ``keys`` as rows (shape ``(len(keys), 256)``), read-only.

    The last 64 are kept: a context's words are asked about for each of its responses,
    and a bounded cache keeps memory flat however many contexts a run holds.
    """
    if not keys:
        out = np.zeros((0, _table()[1].shape[1]), np.float32)
    else:
        out = np.stack([vector(k) for k in keys])
    out.setflags(write=False)
    return out


def near(key: str, candidates: Sequence[str], cosine: float) -> tuple[str, ...]:
    """The ``candidates`` whose cosine with ``key`` is at least ``cosine``, in their order
    (the caller leaves out the word itself, its opposites, ...)."""
    if not candidates:
        return ()
    sims = (matrix(tuple(candidates)) @ vector(key)).tolist()  # floats: cosine is not cast
    return tuple(c for c, s in zip(candidates, sims, strict=True) if s >= cosine)
