"""Reading files that may not be files: only regular ones, never blocking, bounded.

Anything toolret reads from a project can be something else under a file's
name: ``open()`` on a named pipe (FIFO) blocks until a writer appears, and
``read()`` of ``/dev/zero`` (a symlink to it named ``prompt.txt``) never ends.
Every read of a project's files goes through :func:`read_regular`: the file is
opened with ``O_NONBLOCK`` (opening a FIFO then returns at once instead of
waiting; it changes nothing for a regular file), and the *opened* descriptor
is ``fstat``-ed, so a file swapped for a FIFO between a ``stat`` and the
``open`` is still refused. What is not a regular file, or is larger than the
caller's ``limit``, raises an :class:`OSError` whose ``strerror`` says why,
like any other I/O failure: callers that report unreadable files (``TRV003
io-error``) need no second path.
"""

from __future__ import annotations

import errno
import io
import os
import stat

__all__ = ["TEXT_FILE_LIMIT", "file_kind", "not_regular_error", "read_regular"]

TEXT_FILE_LIMIT = 8 * 1024 * 1024
"""The cap for the project text files toolret reads besides Python sources (PolyAI
prompts and YAML, ``.gitignore``, packaging metadata): far above any real one."""

_OPEN_FLAGS = (
    os.O_RDONLY
    | getattr(os, "O_NONBLOCK", 0)
    | getattr(os, "O_NOCTTY", 0)
    | getattr(os, "O_CLOEXEC", 0)
    | getattr(os, "O_BINARY", 0)
)


def file_kind(mode: int) -> str | None:
    """What a non-regular file is, in words (``None`` for a regular file)."""
    if stat.S_ISREG(mode):
        return None
    if stat.S_ISDIR(mode):
        return "a directory"
    if stat.S_ISFIFO(mode):
        return "a named pipe (FIFO)"
    if stat.S_ISCHR(mode):
        return "a character device"
    if stat.S_ISBLK(mode):
        return "a block device"
    if stat.S_ISSOCK(mode):
        return "a socket"
    return "not a regular file"


def not_regular_error(path: str | os.PathLike[str], mode: int) -> OSError:
    """The error for a path whose ``stat`` mode is not a regular file's."""
    kind = file_kind(mode) or "a regular file"
    if stat.S_ISDIR(mode):
        return IsADirectoryError(errno.EISDIR, "Is a directory", os.fspath(path))
    return OSError(errno.EINVAL, f"Not a regular file: {kind}", os.fspath(path))


def read_regular(path: str | os.PathLike[str], *, limit: int | None = None) -> bytes:
    """The bytes of the regular file at ``path`` (symlinks followed).

    Raises :class:`OSError` for what cannot be read, for anything that is not a
    regular file (FIFO, device, socket, directory), and for a file larger than
    ``limit`` bytes when one is given. Never blocks on a FIFO.
    """
    fd = os.open(path, _OPEN_FLAGS)
    try:
        status = os.fstat(fd)
        if not stat.S_ISREG(status.st_mode):
            raise not_regular_error(path, status.st_mode)
        if limit is not None and status.st_size > limit:
            raise _too_large(path, limit)
        with io.FileIO(fd, "rb", closefd=False) as raw:
            data = raw.readall()  # sized by fstat: one read for a file that does not grow
        if limit is not None and len(data) > limit:
            raise _too_large(path, limit)
        return data
    finally:
        os.close(fd)


def _too_large(path: str | os.PathLike[str], limit: int) -> OSError:
    return OSError(
        errno.EFBIG, f"File too large: over the read limit of {limit} bytes", os.fspath(path)
    )
