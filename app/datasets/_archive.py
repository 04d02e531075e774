"""An uploaded zip, read without trusting it: member and size caps, lookups that stay inside it."""

import io
import posixpath
import re
import zipfile
import zlib

from app.datasets._types import DatasetFormatError

DATA_SUFFIXES = (".jsonl", ".tsv", ".csv")
_DRIVE = re.compile(r"^[A-Za-z]:/")


class ArchiveError(ValueError):
    """A member that cannot be found or read; the caller knows which row and field asked."""


def is_absolute(path: str) -> bool:
    path = path.replace("\\", "/")
    return path.startswith("/") or bool(_DRIVE.match(path))


def _escapes(path: str) -> bool:
    return path == ".." or path.startswith("../")


class Archive:
    """The members of an uploaded zip, by normalised name; bytes are read only when asked for."""

    def __init__(
        self, upload: str, data: bytes, *, max_members: int, max_uncompressed_bytes: int
    ) -> None:
        try:
            self._zip = zipfile.ZipFile(io.BytesIO(data))
            infos = self._zip.infolist()
        except (zipfile.BadZipFile, zipfile.LargeZipFile, OSError, ValueError) as exc:
            raise DatasetFormatError(upload, None, None, f"not a readable zip file: {exc}") from exc
        # Both caps are checked on the central directory, before a single byte is inflated.
        if len(infos) > max_members:
            raise DatasetFormatError(
                upload, None, None, f"the zip has {len(infos)} members; at most {max_members}"
            )
        total = sum(info.file_size for info in infos)
        if total > max_uncompressed_bytes:
            raise DatasetFormatError(
                upload,
                None,
                None,
                f"the zip unpacks to {total} bytes; at most {max_uncompressed_bytes}",
            )
        self._members: dict[str, zipfile.ZipInfo] = {}
        for info in infos:
            if info.is_dir():
                continue
            name = posixpath.normpath(info.filename.replace("\\", "/"))
            if is_absolute(name) or _escapes(name):
                raise DatasetFormatError(
                    upload, None, None, f"member {info.filename!r} points outside the archive"
                )
            self._members.setdefault(name, info)
        # Data URLs already built from members: an image shared by many rows is encoded once.
        self.media_urls: dict[str, tuple[str, str]] = {}

    def data_files(self) -> list[str]:
        """Members holding rows: .jsonl/.tsv/.csv, skipping macOS resource forks and dotfiles."""
        return sorted(
            name
            for name in self._members
            if name.lower().endswith(DATA_SUFFIXES)
            and not name.startswith("__MACOSX/")
            and not any(part.startswith(".") for part in name.split("/"))
        )

    def read(self, name: str) -> bytes:
        info = self._members[name]
        try:
            with self._zip.open(info) as member:
                content = member.read(info.file_size + 1)
        # RuntimeError: encrypted member; NotImplementedError: unsupported compression method.
        except (
            zipfile.BadZipFile,
            zlib.error,
            RuntimeError,
            NotImplementedError,
            OSError,
            EOFError,
        ) as exc:
            raise ArchiveError(f"cannot read {name!r} from the zip: {exc}") from exc
        if len(content) != info.file_size:
            raise ArchiveError(f"{name!r} is not the size the zip says it is")
        return content

    def find(self, path: str, data_file: str, *, by_suffix: bool = False) -> str:
        """The member a row's media path names.

        A relative path is looked up next to the data file, then from the archive root. An
        absolute path is looked up from the root with its leading `/` (or drive) removed; with
        `by_suffix` (VLMEvalKit `image_path`, usually absolute paths on the author's machine)
        its ever shorter tails are tried too, next to the data file then from the root, down
        to the bare file name.
        """
        path = path.replace("\\", "/")
        base = posixpath.dirname(data_file)
        if is_absolute(path):
            tail = posixpath.normpath(_DRIVE.sub("", path).lstrip("/"))
            candidates = [tail]
            if by_suffix:
                parts = tail.split("/")
                tails = ["/".join(parts[i:]) for i in range(len(parts))]
                candidates = [c for t in tails for c in (posixpath.join(base, t), t)]
        else:
            candidates = [posixpath.join(base, path), path]
        normalised = dict.fromkeys(posixpath.normpath(c) for c in candidates)
        inside = [c for c in normalised if not _escapes(c)]
        if not inside:
            raise ArchiveError(f"{path!r} points outside the archive")
        for candidate in inside:
            if candidate in self._members:
                return candidate
        raise ArchiveError(f"{path!r} is not in the uploaded zip (looked for {', '.join(inside)})")
