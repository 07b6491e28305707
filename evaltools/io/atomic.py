"""Atomic writing: a file appears complete or not at all, and where it may be written.

:func:`atomic_path` (a temporary file beside the target, renamed over it when
the block ends without an exception) is the one atomic writer: record files,
reports, calibrations and the parts of a scaled run use it. Temporary files a
killed run left behind are removed (:func:`remove_stale_temps`);
:func:`refuse_overwriting_input` and :func:`check_output_folder` say where an
output may not go.
"""

from __future__ import annotations

import errno
import glob
import os
import shutil
import stat
import tempfile
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from pathlib import Path

from evaltools.errors import EvaltoolsError, InputError, OutputError
from evaltools.io.records import STDOUT

#: errno values that mean "this output cannot be written" (a full disk, a quota,
#: a file-size limit, a read-only file system): one-line OutputErrors.
WRITE_ERRNOS = {errno.ENOSPC, errno.EDQUOT, errno.EFBIG, errno.EROFS}


def current_umask() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return mask


def _pid_alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


def remove_stale_temps(target: Path) -> list[Path]:
    """Remove temporary files a killed earlier run left beside ``target``.

    Temporary files (and the staging folders of a folder output) are named
    ``.<name>.<pid>.<random>.part``; one whose process no longer runs is
    stale (a run killed with ``kill -9`` or by a power cut). Files of running
    processes are left alone. Returns what was removed.
    """
    removed = []
    pattern = os.path.join(glob.escape(str(target.parent)), f".{glob.escape(target.name)}.*.part")
    for name in glob.glob(pattern):
        rest = os.path.basename(name)[len(target.name) + 2:]
        pid = rest.split(".", 1)[0]
        if not pid.isdigit() or int(pid) == os.getpid() or _pid_alive(int(pid)):
            continue
        try:
            if os.path.isdir(name) and not os.path.islink(name):
                shutil.rmtree(name)  # a staging folder of parts (``-o folder/``)
            else:
                os.unlink(name)
            removed.append(Path(name))
        except OSError:
            pass
    return removed


def temp_beside(target: Path, suffix: str) -> Path:
    """An empty temporary file in ``target``'s folder (created if missing)."""
    try:
        target.parent.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(prefix=f".{target.name}.{os.getpid()}.", suffix=suffix,
                                   dir=target.parent)
    except OSError as exc:
        blocker = next((a for a in target.parents if a.exists() and not a.is_dir()), None)
        why = f"{blocker} is a file, not a folder" if blocker else exc.strerror or str(exc)
        raise OutputError(f"{target}: cannot write there ({why})") from None
    os.close(fd)
    return Path(tmp)


def is_device(path: str | Path) -> bool:
    """Whether ``path`` is an existing character device (``/dev/null``): written to, never
    replaced, and whatever its name it has no file type."""
    import stat

    try:
        return stat.S_ISCHR(os.stat(path).st_mode)
    except (OSError, ValueError):
        return False


def check_output_folder(output: str | Path) -> None:
    """Raise an :class:`OutputError` when the folder ``output`` goes in does not exist.

    Commands do not create folders: a typo in ``-o /tmp/reprots/x.jsonl`` would
    make folders anywhere. A device (``/dev/null``) is accepted as it is.
    """
    out = Path(output)
    if is_device(out):
        return
    parent = out.parent
    if not parent.is_dir():
        blocker = next((a for a in out.parents if a.exists() and not a.is_dir()), None)
        why = (f"{blocker} is a file, not a folder" if blocker is not None else
               f"the folder {parent} does not exist; create it first, evaltools creates "
               f"no folders")
        raise OutputError(f"{out}: cannot write there ({why})")


def refuse_overwriting_input(output: str | Path | None, inputs: Iterable[str | Path]) -> None:
    """Raise an InputError if ``output`` is one of ``inputs``: the same path, or the
    same file through a symbolic or hard link. Writing it would destroy the input
    (lines that could not be read would come back as stubs). First, the folder the
    output goes in must exist (:func:`check_output_folder`).

    The one output-safety check: the command line passes every file a command
    reads (inputs, ``--reference``, ``--config``, ``--registry``,
    ``--calibration``, ``--source``), and the target must be something a
    write cannot destroy (:func:`output_kind`).

    >>> import tempfile, pathlib
    >>> d = pathlib.Path(tempfile.mkdtemp()); (d / "a.jsonl").write_text("")
    0
    >>> refuse_overwriting_input(d / "a.jsonl", [d / "a.jsonl"])
    Traceback (most recent call last):
    ...
    evaltools.errors.InputError: a.jsonl: the output is this input file; write elsewhere
    """
    if output is None or str(output) == STDOUT:
        return
    out = Path(output)
    check_output_folder(out)
    for path in inputs:
        p = Path(path)
        same = out.resolve() == p.resolve()
        if not same:
            try:
                same = os.path.samefile(out, p)
            except OSError:  # one of them does not exist: not the same file
                same = False
        if same:
            raise InputError("the output is this input file; write elsewhere", source=p.name)
    output_kind(out)


def output_kind(path: str | Path) -> str:
    """What writing at ``path`` means: ``"new"``, ``"file"`` (replaced by a rename),
    ``"stream"`` (a character device such as ``/dev/null`` or a FIFO: written
    directly, never renamed over) or ``"folder"``; anything else (a block
    device, a socket) is an :class:`~evaltools.errors.OutputError`.

    >>> output_kind("/dev/null"), output_kind("/nonexistent/x.jsonl")
    ('stream', 'new')
    """
    try:
        mode = os.stat(path).st_mode
    except (FileNotFoundError, NotADirectoryError):
        return "new"
    except OSError as exc:
        raise OutputError(f"{path}: cannot write there ({exc.strerror or exc})") from None
    if stat.S_ISREG(mode):
        return "file"
    if stat.S_ISCHR(mode) or stat.S_ISFIFO(mode):
        return "stream"
    if stat.S_ISDIR(mode):
        return "folder"
    raise OutputError(f"{path}: is neither a file, a character device nor a FIFO; "
                      f"evaltools does not write there")


@contextmanager
def atomic_path(path: str | Path) -> Iterator[Path]:
    """A temporary path beside ``path``, renamed over it if the block ends without error.

    The file gets the permissions a new file would (the umask applies). A
    folder that cannot be written, or a parent that is a file, is an
    :class:`~evaltools.errors.OutputError` naming the path, and so is a full
    disk (ENOSPC), a quota or file-size limit or a read-only file system met
    while the block writes; on any error (and on SIGINT/SIGTERM under the
    command line) the temporary file is removed and ``path`` is untouched.
    Temporary files that a killed earlier run left beside ``path`` are
    removed first (:func:`remove_stale_temps`). A character device
    (``/dev/null``) or a FIFO is written directly: renaming over it would
    replace it with a regular file.

    Examples
    --------
    >>> import tempfile, pathlib
    >>> p = pathlib.Path(tempfile.mkdtemp()) / "a.txt"
    >>> with atomic_path(p) as tmp:
    ...     _ = tmp.write_text("done")
    ...     p.exists()
    False
    >>> p.read_text()
    'done'
    """
    target = Path(path)
    if output_kind(target) == "stream":  # /dev/null, a FIFO: written directly, never replaced
        try:
            yield target
        except OSError as exc:
            if isinstance(exc, EvaltoolsError) or exc.errno not in WRITE_ERRNOS:
                raise
            raise OutputError(f"{target}: cannot write there ({exc.strerror or exc})") from None
        return
    remove_stale_temps(target)
    tmp = temp_beside(target, ".part")
    try:
        try:
            yield tmp
        except OSError as exc:
            if isinstance(exc, EvaltoolsError) or exc.errno not in WRITE_ERRNOS:
                raise
            raise OutputError(f"{target}: cannot write there ({exc.strerror or exc}); "
                              f"nothing was written") from None
        try:
            os.chmod(tmp, 0o666 & ~current_umask())
            os.replace(tmp, target)
        except OSError as exc:
            raise OutputError(f"{target}: cannot write there ({exc.strerror or exc})") from None
    finally:
        tmp.unlink(missing_ok=True)
