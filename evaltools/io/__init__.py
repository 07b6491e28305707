"""Reading and writing records: files of records, labelled files, public
benchmark formats and the durable label store.

- :mod:`evaltools.io.records` — streaming readers/writers for .jsonl/.csv/.parquet
- :mod:`evaltools.io.labelled` — labelled files (one binary-label parser)
- :mod:`evaltools.io.benchmarks` — HaluEval / BEGIN / RAGTruth loaders
- :mod:`evaltools.io.label_store` — the durable label store of the Annotator
"""

from evaltools.io.records import (
    FORMATS,
    STDOUT,
    Unreadable,
    atomic_path,
    columns_read,
    count_records,
    file_format,
    loads_bounded,
    map_columns,
    neutralise_formula,
    open_writer,
    parse_column_map,
    read_json_lines,
    read_records,
    refuse_overwriting_input,
    require_text,
    row_unit,
    write_or_drain,
)

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
