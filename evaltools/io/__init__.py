"""Reading and writing records: files of records, labelled files, public
benchmark formats and the durable label store.

- :mod:`evaltools.io.records` — streaming readers for .jsonl/.csv/.parquet (the one
  JSON Lines loop, ``json_line_records``)
- :mod:`evaltools.io.validation` — bounded JSON parsing, one line's record, field checks
- :mod:`evaltools.io.writing` — writers (``open_writer``, ``write_or_drain``)
- :mod:`evaltools.io.atomic` — the one atomic writer (``atomic_path``), stale
  temporary files, where an output may not go
- :mod:`evaltools.io.convert` — JSON Lines to CSV / Parquet, values to Arrow types
- :mod:`evaltools.io.cells` — CSV and Parquet cells read back to their types
- :mod:`evaltools.io.parts` — a large input cut into parts (scaled runs)
- :mod:`evaltools.io.labelled` — labelled files (one binary-label parser)
- :mod:`evaltools.io.benchmarks` — HaluEval / BEGIN / RAGTruth loaders
- :mod:`evaltools.io.label_store` — the durable label store of the Annotator
"""

from evaltools.io.atomic import atomic_path, refuse_overwriting_input
from evaltools.io.convert import neutralise_formula
from evaltools.io.records import (
    FORMATS,
    STDOUT,
    Unreadable,
    count_records,
    file_format,
    map_columns,
    parse_column_map,
    read_json_lines,
    read_records,
    row_unit,
)
from evaltools.io.validation import columns_read, loads_bounded, require_text
from evaltools.io.writing import open_writer, write_or_drain

__all__ = [
    "FORMATS",
    "STDOUT",
    "Unreadable",
    "atomic_path",
    "columns_read",
    "count_records",
    "file_format",
    "loads_bounded",
    "map_columns",
    "neutralise_formula",
    "open_writer",
    "parse_column_map",
    "read_json_lines",
    "read_records",
    "refuse_overwriting_input",
    "require_text",
    "row_unit",
    "write_or_drain",
]
