"""An uploaded zip, read without trusting it: caps on members, unpacked bytes and compression
ratio, members read as counted streams, lookups that stay inside it."""

import copy
import io
import posixpath
import re
import struct
import zipfile
import zlib
from dataclasses import dataclass
from typing import Literal

from app.datasets._types import DatasetFormatError

DATA_SUFFIXES = (".jsonl", ".tsv", ".csv")
_DRIVE = re.compile(r"^[A-Za-z]:/")
# A member, or a whole zip, inflating to less than this is not held to the ratio cap: a small,
# repetitive file (one prompt on every line) compresses far better than 100:1 and costs nothing
# to read. The zip as a whole is held to the ratio too, so splitting a bomb into many members
# each under this floor gains nothing.
RATIO_FLOOR_BYTES = 1 << 20
# Bytes inflated per read: what a member costs in memory beyond what its parser keeps.
CHUNK_BYTES = 64 * 1024

Cap = Literal["members", "uncompressed_bytes", "ratio", "archive_ratio", "declared_size"]


@dataclass(frozen=True)
class ArchiveCaps:
    """How much an uploaded zip may hold (the service fills them from settings)."""

    members: int = 10_000
    uncompressed_bytes: int = 512 * 1024 * 1024
    # Inflated bytes per compressed byte, per member and for the whole zip (past
    # RATIO_FLOOR_BYTES); the whole zip's compressed bytes are the upload's own length.
    ratio: int = 100


class ArchiveError(ValueError):
    """A member that cannot be found or read; the caller knows which row and field asked."""


class ArchiveTooLarge(DatasetFormatError):
    """A zip over one of its caps: which member (None: the zip as a whole) and which cap."""

    def __init__(self, upload: str, member: str | None, cap: Cap, message: str) -> None:
        super().__init__(upload, None, None, message)
        self.member = member
        self.cap = cap

    def __reduce__(self) -> tuple:
        return (type(self), (self.file, self.member, self.cap, self.message))


def is_absolute(path: str) -> bool:
    path = path.replace("\\", "/")
    return path.startswith("/") or bool(_DRIVE.match(path))


def _escapes(path: str) -> bool:
    return path == ".." or path.startswith("../")


# A central directory entry: its signature, fixed fields, then the lengths of its file name,
# extra field and comment at offset 28 (APPNOTE 4.3.12).
_ENTRY = struct.Struct("<4s24xHHH12x")


def _listed_past(data: bytes, cap: int) -> bool:
    """Whether the zip's central directory lists more than `cap` entries, walked as zipfile will
    walk it (by the directory's size: the count it declares may lie) without reading one.
    A directory that cannot be found or walked is left for zipfile to refuse."""
    try:
        # zipfile's own finder of the end records (zip64 included), so the directory found is
        # the one it reads.
        end = zipfile._EndRecData(io.BytesIO(data))  # type: ignore[attr-defined]
    except OSError:
        return False
    if not end:
        return False
    size = end[zipfile._ECD_SIZE]  # type: ignore[attr-defined]
    start = end[zipfile._ECD_LOCATION] - size  # type: ignore[attr-defined]
    if end[zipfile._ECD_SIGNATURE] == zipfile.stringEndArchive64:  # type: ignore[attr-defined]
        start -= zipfile.sizeEndCentDir64 + zipfile.sizeEndCentDir64Locator  # type: ignore[attr-defined]
    position, listed = start, 0
    while position < start + size:
        if start < 0 or position + _ENTRY.size > len(data):
            return False
        signature, name, extra, comment = _ENTRY.unpack_from(data, position)
        if signature != b"PK\x01\x02":
            return False
        listed += 1
        if listed > cap:
            return True
        position += _ENTRY.size + name + extra + comment
    return False


class Archive:
    """The members of an uploaded zip, by normalised name; bytes are inflated only when read,
    a chunk at a time, and counted against the caps as they come (`inflated` is the total)."""

    def __init__(self, upload: str, data: bytes, caps: ArchiveCaps) -> None:
        self.upload = upload
        self.caps = caps
        self.inflated = 0
        # The upload's length, not the sum of its members' compressed sizes: members may
        # share (overlap) compressed bytes, counting them many times over.
        self.compressed = len(data)
        # Counted before zipfile reads the directory: it builds an object for every entry it
        # lists, and a 14 MB directory of 300,000 entries took 0.9 s and 110 MB (a 512 MiB
        # upload, some 4 GB) before the cap below could refuse it.
        if _listed_past(data, caps.members):
            message = f"the zip has more than {caps.members} members; at most {caps.members}"
            raise ArchiveTooLarge(upload, None, "members", message)
        try:
            self._zip = zipfile.ZipFile(io.BytesIO(data))
            infos = self._zip.infolist()
        except (zipfile.BadZipFile, zipfile.LargeZipFile, OSError, ValueError) as exc:
            raise DatasetFormatError(upload, None, None, f"not a readable zip file: {exc}") from exc
        # Every cap is checked on the central directory before a single byte is inflated; the
        # sizes it declares may lie, so reading checks them again on the bytes themselves.
        if len(infos) > caps.members:
            message = f"the zip has {len(infos)} members; at most {caps.members}"
            raise ArchiveTooLarge(upload, None, "members", message)
        total = sum(info.file_size for info in infos)
        if total > caps.uncompressed_bytes:
            message = f"the zip unpacks to {total} bytes; at most {caps.uncompressed_bytes}"
            raise ArchiveTooLarge(upload, None, "uncompressed_bytes", message)
        for info in infos:
            if info.file_size > self._ratio_bound(info):
                raise self._over_ratio(info, info.file_size)
        if total > self._archive_ratio_bound():
            raise self._over_archive_ratio(None, total)
        self._members: dict[str, zipfile.ZipInfo] = {}
        # Every member named outside the archive, and every member sharing its normalised name
        # with another, each by its own name: the caller names them with the rows' faults.
        self.misplaced: list[DatasetFormatError] = []
        # Members sharing a name: which one a row's path reads would be the zip's order, not
        # the user's choice, so both are named and neither is read.
        shared: dict[str, list[zipfile.ZipInfo]] = {}
        for info in infos:
            if info.is_dir():
                continue
            name = posixpath.normpath(info.filename.replace("\\", "/"))
            if is_absolute(name) or _escapes(name):
                message = f"member {info.filename!r} points outside the archive"
                self.misplaced.append(DatasetFormatError(info.filename, None, None, message))
                continue
            shared.setdefault(name, []).append(info)
            self._members.setdefault(name, info)
        for name, members in shared.items():
            if len(members) < 2:
                continue
            written = ", ".join(repr(member.filename) for member in members)
            message = f"members {written} all unpack to {name!r}; keep one of them"
            self.misplaced.extend(
                DatasetFormatError(member.filename, None, None, message) for member in members
            )
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

    def open(self, name: str) -> io.BufferedReader:
        """A member as a binary stream that stops, raising ArchiveTooLarge, one byte past the
        first cap it reaches; read errors raise ArchiveError."""
        info = self._members[name]
        # Room for more than declared, so a member holding more than its declared size is seen
        # doing so: zipfile would cut it short at that size and answer a bad CRC. A chunk more,
        # as zipfile inflates up to 4 KiB ahead and must not reach that end (and check the CRC)
        # before the byte past the declared size is handed over; `_CountedMember` asks no more.
        probe = copy.copy(info)
        probe.file_size = info.file_size + CHUNK_BYTES
        try:
            member = self._zip.open(probe)
        except (zipfile.BadZipFile, RuntimeError, NotImplementedError, OSError) as exc:
            raise ArchiveError(f"cannot read {name!r} from the zip: {exc}") from exc
        return io.BufferedReader(_CountedMember(self, name, info, member), CHUNK_BYTES)

    def read(self, name: str) -> bytes:
        with self.open(name) as member:
            return member.read()

    def room(self, info: zipfile.ZipInfo, inflated: int) -> tuple[int, Cap]:
        """Bytes a member may still inflate past `inflated`, and the cap that says so."""
        left: list[tuple[int, Cap]] = [
            (info.file_size - inflated, "declared_size"),
            (self._ratio_bound(info) - inflated, "ratio"),
            (self._archive_ratio_bound() - self.inflated, "archive_ratio"),
            (self.caps.uncompressed_bytes - self.inflated, "uncompressed_bytes"),
        ]
        return min(left, key=lambda pair: pair[0])

    def too_large(self, info: zipfile.ZipInfo, cap: Cap, inflated: int) -> ArchiveTooLarge:
        name = info.filename
        if cap == "declared_size":
            message = (
                f"member {name!r} inflates to more than the {info.file_size} bytes the zip "
                f"declares for it; stopped after {inflated}"
            )
            return ArchiveTooLarge(self.upload, name, cap, message)
        if cap == "ratio":
            return self._over_ratio(info, inflated)
        if cap == "archive_ratio":
            return self._over_archive_ratio(name, self.inflated)
        message = (
            f"member {name!r} takes the zip past {self.caps.uncompressed_bytes} unpacked bytes; "
            f"stopped after {self.inflated}"
        )
        return ArchiveTooLarge(self.upload, name, cap, message)

    def _ratio_bound(self, info: zipfile.ZipInfo) -> int:
        return max(RATIO_FLOOR_BYTES, self.caps.ratio * info.compress_size)

    def _archive_ratio_bound(self) -> int:
        return max(RATIO_FLOOR_BYTES, self.caps.ratio * self.compressed)

    def _over_archive_ratio(self, member: str | None, size: int) -> ArchiveTooLarge:
        """The whole zip past the ratio: declared (member None) or inflated, stopped in member."""
        ratio = size // max(self.compressed, 1)
        unpacks = f"unpacks to {size} bytes" if member is None else f"inflated {size} bytes"
        where = "" if member is None else f" (stopped in member {member!r})"
        message = (
            f"the zip of {self.compressed} bytes {unpacks} ({ratio}:1) across its members"
            f"{where}; at most {self.caps.ratio}:1 for the whole zip"
        )
        return ArchiveTooLarge(self.upload, member, "archive_ratio", message)

    def _over_ratio(self, info: zipfile.ZipInfo, size: int) -> ArchiveTooLarge:
        ratio = size // max(info.compress_size, 1)
        message = (
            f"member {info.filename!r} unpacks {info.compress_size} compressed bytes to {size} "
            f"({ratio}:1); at most {self.caps.ratio}:1"
        )
        return ArchiveTooLarge(self.upload, info.filename, "ratio", message)

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


# RuntimeError: encrypted member; NotImplementedError: unsupported compression method.
_READ_ERRORS = (
    zipfile.BadZipFile,
    zlib.error,
    RuntimeError,
    NotImplementedError,
    OSError,
    EOFError,
)


class _CountedMember(io.RawIOBase):
    """One member's inflated bytes, asking zipfile for no more than the caps leave room for."""

    def __init__(
        self, archive: Archive, name: str, info: zipfile.ZipInfo, member: zipfile.ZipExtFile
    ) -> None:
        self._archive = archive
        self._name = name
        self._info = info
        self._member = member
        self._inflated = 0

    def readable(self) -> bool:
        return True

    def readinto(self, buffer: memoryview) -> int:  # type: ignore[override]
        room, cap = self._archive.room(self._info, self._inflated)
        # At most one byte past the room: enough to know a cap was passed, never a chunk more.
        want = min(len(buffer), max(room, 0) + 1)
        try:
            chunk = self._member.read(want)
        except _READ_ERRORS as exc:
            raise ArchiveError(f"cannot read {self._name!r} from the zip: {exc}") from exc
        self._inflated += len(chunk)
        self._archive.inflated += len(chunk)
        if len(chunk) > room:
            raise self._archive.too_large(self._info, cap, self._inflated)
        if not chunk and want and self._inflated != self._info.file_size:
            raise ArchiveError(f"{self._name!r} is not the size the zip says it is")
        buffer[: len(chunk)] = chunk
        return len(chunk)

    def close(self) -> None:
        self._member.close()
        super().close()
