"""Zip bombs: a dataset zip over its compression-ratio cap (per member or as a whole) or its
unpacked-size cap, or with a member holding more than it declares, is refused with a 413 naming
`file`, the member and the cap, and nothing is stored; members are read as streams, never more
than one byte past a cap. A row over LOUPE_MAX_DATASET_ROW_BYTES is a 422 naming its line."""

import io
import os
import struct
import subprocess
import sys
import tracemalloc
import uuid
import zipfile
from collections.abc import Iterator
from pathlib import Path

import pytest
from pydantic import ValidationError
from sqlalchemy import func, select

from app.config import Settings
from app.datasets._archive import CHUNK_BYTES, Archive, ArchiveCaps, ArchiveTooLarge
from app.datasets._tabular import read_records
from app.datasets.formats import DatasetFormatErrors
from app.models import BlobOwner, Dataset, DatasetRow
from app.problems import MAX_FIELD_ERRORS
from app.tenants import repository
from tests.fixtures.api import Api, side_app
from tests.runs.helpers import upload

LOUPE = Path(sys.executable).with_name("loupe")
MIB = 1024 * 1024
ROW = b'{"messages": [{"role": "user", "content": "What is 2 + 2?"}], "answer": "4"}\n'


def rows_of(mebibytes: int) -> Iterator[bytes]:
    """`mebibytes` MiB of the same valid JSONL row, a MiB at a time."""
    chunk = ROW * (MIB // len(ROW))
    for _ in range(mebibytes):
        yield chunk


def deflated(name: str, chunks: Iterator[bytes]) -> bytes:
    """A zip of one member written as a stream, so the test never holds it inflated."""
    buffer = io.BytesIO()
    with (
        zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive,
        archive.open(name, "w") as member,
    ):
        for chunk in chunks:
            member.write(chunk)
    return buffer.getvalue()


def forge_size(data: bytes, declared: int) -> bytes:
    """The zip with every member's uncompressed size, in the central directory and in its local
    header, replaced by `declared` (CRC and compressed data left as they are)."""
    forged = bytearray(data)
    end = forged.rindex(b"PK\x05\x06")
    count, _, start = struct.unpack_from("<HII", forged, end + 10)
    for _ in range(count):
        assert forged[start : start + 4] == b"PK\x01\x02"
        struct.pack_into("<I", forged, start + 24, declared)
        local = struct.unpack_from("<I", forged, start + 42)[0]
        struct.pack_into("<I", forged, local + 22, declared)
        lengths = struct.unpack_from("<HHH", forged, start + 28)
        start += 46 + sum(lengths)
    return bytes(forged)


@pytest.fixture(scope="module")
def bomb() -> bytes:
    """200 MiB of dataset rows in about 600 KB: the audit's bomb, a third of its size."""
    return deflated("bomb.jsonl", rows_of(200))


def one_row_members(count: int, size: int) -> bytes:
    """A zip of `count` members, each one JSONL row of `size` bytes (a long question)."""
    filler = size - len(ROW)
    row = ROW.replace(b"What is 2 + 2?", b"a" * (filler + len(b"What is 2 + 2?")))
    assert len(row) == size
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
        for index in range(count):
            archive.writestr(f"part{index:03}.jsonl", row)
    return buffer.getvalue()


@pytest.fixture(scope="module")
def split_bomb() -> bytes:
    """The audit's split bomb, smaller: 40 one-row members each just under the 1 MiB that
    exempts a member from the ratio cap, about 850:1 for the zip as a whole."""
    return one_row_members(40, MIB - 1)


@pytest.fixture(scope="module")
def liar() -> bytes:
    """32 MiB of rows in one member declaring 2 MiB: the central directory looks harmless."""
    return forge_size(deflated("liar.jsonl", rows_of(32)), 2 * MIB)


@pytest.fixture(scope="module")
def small_caps(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Api]:
    """An app whose uploads may be 2 MiB, so its zips may unpack to 2 MiB at most."""
    with side_app(tmp_path_factory.mktemp("caps"), max_dataset_bytes=2 * MIB) as app:
        yield app


@pytest.fixture(scope="module")
def small_rows(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Api]:
    """An app whose dataset rows may hold 64 KiB of text each."""
    with side_app(tmp_path_factory.mktemp("rows"), max_dataset_row_bytes=64 * 1024) as app:
        yield app


def stored_for(api: Api, tenant_name: str) -> tuple[int, int, int]:
    """The tenant's datasets, dataset rows and owned blobs, counted in the database."""
    with api.served.runtime.session() as session:
        tenant = repository.tenant_by_name(session, tenant_name)
        assert tenant is not None
        datasets = session.scalar(
            select(func.count()).select_from(Dataset).where(Dataset.tenant_id == tenant.id)
        )
        rows = session.scalar(
            select(func.count())
            .select_from(DatasetRow)
            .join(Dataset, Dataset.id == DatasetRow.dataset_id)
            .where(Dataset.tenant_id == tenant.id)
        )
        blobs = session.scalar(
            select(func.count()).select_from(BlobOwner).where(BlobOwner.tenant_id == tenant.id)
        )
        return datasets or 0, rows or 0, blobs or 0


def refused_413(response) -> dict:
    assert response.status_code == 413, response.text
    assert response.headers["content-type"] == "application/problem+json"
    problem = response.json()
    assert problem["type"].endswith("/dataset-too-large")
    assert [error["loc"] for error in problem["errors"]] == ["file"]
    assert problem["detail"].startswith("file: ")
    return problem


class TestBombs:
    def test_a_bomb_is_refused_naming_member_and_ratio_and_nothing_is_stored(
        self, api: Api, bomb: bytes
    ) -> None:
        name = f"bombed-{uuid.uuid4().hex[:8]}"
        with api.client(api.new_key(name)) as client:
            problem = refused_413(upload(client, "rows.zip", bomb, "general_vqa"))
            assert "member 'bomb.jsonl' unpacks" in problem["detail"]
            assert "at most 100:1" in problem["detail"]
            assert "LOUPE_MAX_ARCHIVE_RATIO" in problem["detail"]
            assert client.get("/v1/datasets").json()["data"] == []
        assert stored_for(api, name) == (0, 0, 0)

    def test_a_bomb_split_into_members_under_the_floor_is_refused_as_a_whole(
        self, api: Api, split_bomb: bytes
    ) -> None:
        name = f"split-{uuid.uuid4().hex[:8]}"
        with api.client(api.new_key(name)) as client:
            problem = refused_413(upload(client, "rows.zip", split_bomb, "general_vqa"))
            assert (
                f"the zip of {len(split_bomb)} bytes unpacks to {40 * (MIB - 1)} bytes"
                in problem["detail"]
            )
            assert "at most 100:1 for the whole zip" in problem["detail"]
            assert "LOUPE_MAX_ARCHIVE_RATIO" in problem["detail"]
            assert client.get("/v1/datasets").json()["data"] == []
        assert stored_for(api, name) == (0, 0, 0)

    def test_a_small_zip_is_exempt_from_the_ratio_however_well_it_compresses(
        self, api: Api
    ) -> None:
        # Under 1 MiB unpacked in all, at far more than 100:1: repetitive prompts, no bomb.
        archive = one_row_members(4, 200 * 1024)
        assert 100 * len(archive) < 4 * 200 * 1024
        with api.tenant_client() as client:
            response = upload(client, "rows.zip", archive, "general_vqa")
        assert response.status_code == 201, response.text
        assert response.json()["row_count"] == 4

    def test_a_zip_unpacking_past_the_upload_cap_is_refused(self, small_caps: Api) -> None:
        # 3 MiB of rows at about 340:1 would pass a ratio cap of 1000; not the 2 MiB cap.
        archive = deflated("rows.jsonl", rows_of(3))
        name = f"big-{uuid.uuid4().hex[:8]}"
        with small_caps.client(small_caps.new_key(name)) as client:
            problem = refused_413(upload(client, "rows.zip", archive, "general_vqa"))
        assert f"unpacks to {3 * len(next(rows_of(1)))} bytes" in problem["detail"]
        assert f"at most {2 * MIB}" in problem["detail"]
        assert "LOUPE_MAX_ARCHIVE_BYTES" in problem["detail"]
        assert stored_for(small_caps, name) == (0, 0, 0)

    def test_a_member_larger_than_it_declares_is_stopped_at_the_cap(
        self, small_caps: Api, liar: bytes
    ) -> None:
        name = f"liar-{uuid.uuid4().hex[:8]}"
        with small_caps.client(small_caps.new_key(name)) as client:
            problem = refused_413(upload(client, "rows.zip", liar, "general_vqa"))
        assert (
            f"member 'liar.jsonl' inflates to more than the {2 * MIB} bytes the zip declares "
            f"for it; stopped after {2 * MIB + 1}"
        ) in problem["detail"]
        assert stored_for(small_caps, name) == (0, 0, 0)

    def test_an_honest_zip_within_the_caps_is_stored(self, small_caps: Api) -> None:
        archive = deflated("rows.jsonl", iter([ROW * 100]))
        with small_caps.tenant_client() as client:
            response = upload(client, "rows.zip", archive, "general_vqa")
        assert response.status_code == 201, response.text
        assert response.json()["row_count"] == 100


class TestRowSize:
    def test_a_row_over_the_row_cap_is_refused_naming_its_line(self, small_rows: Api) -> None:
        long_row = ROW.replace(b"What is 2 + 2?", b"a" * (64 * 1024))
        name = f"rows-{uuid.uuid4().hex[:8]}"
        with small_rows.client(small_rows.new_key(name)) as client:
            response = upload(client, "rows.jsonl", ROW + long_row, "general_vqa")
        assert response.status_code == 422, response.text
        problem = response.json()
        assert [error["loc"] for error in problem["errors"]] == ["rows.jsonl:2"]
        assert problem["errors"][0]["pointer"] == "/file/rows.jsonl/line/2"
        assert "at most 65536 (LOUPE_MAX_DATASET_ROW_BYTES)" in problem["detail"]
        assert stored_for(small_rows, name) == (0, 0, 0)

    def test_every_long_row_is_named_with_the_other_rows_problems(self, small_rows: Api) -> None:
        long_row = ROW.replace(b"What is 2 + 2?", b"a" * (64 * 1024))
        rows = long_row + b'{"messages": []}\n' + ROW + long_row
        with small_rows.tenant_client() as client:
            response = upload(client, "rows.jsonl", rows, "general_vqa")
        assert response.status_code == 422, response.text
        named = [error["loc"] for error in response.json()["errors"]]
        assert named == ["rows.jsonl:1", "rows.jsonl:2:messages", "rows.jsonl:4"]

    def test_rows_within_the_cap_are_stored(self, small_rows: Api) -> None:
        row = ROW.replace(b"What is 2 + 2?", b"a" * (60 * 1024))
        with small_rows.tenant_client() as client:
            response = upload(client, "rows.jsonl", ROW + row, "general_vqa")
        assert response.status_code == 201, response.text
        assert response.json()["row_count"] == 2


class TestStreams:
    """What the members' streams inflate, counted by the archive as they are read."""

    def test_a_bomb_is_refused_from_the_central_directory(self, bomb: bytes) -> None:
        with pytest.raises(ArchiveTooLarge) as caught:
            Archive("rows.zip", bomb, ArchiveCaps(uncompressed_bytes=512 * MIB))
        assert (caught.value.member, caught.value.cap) == ("bomb.jsonl", "ratio")

    def test_a_split_bomb_is_refused_from_the_central_directory(self, split_bomb: bytes) -> None:
        with pytest.raises(ArchiveTooLarge) as caught:
            Archive("rows.zip", split_bomb, ArchiveCaps(uncompressed_bytes=512 * MIB))
        assert (caught.value.member, caught.value.cap) == (None, "archive_ratio")

    def test_members_inflate_within_the_whole_zip_ratio(self, split_bomb: bytes) -> None:
        # A ratio the directory passes (at most 1000:1), read member after member against a
        # cap lowered after opening, as a directory that lied about its sizes would leave it.
        caps = ArchiveCaps(uncompressed_bytes=512 * MIB, ratio=1000)
        archive = Archive("rows.zip", split_bomb, caps)
        archive.caps = ArchiveCaps(uncompressed_bytes=512 * MIB, ratio=50)
        bound = max(MIB, 50 * len(split_bomb))
        with pytest.raises(ArchiveTooLarge) as caught:
            for name in archive.data_files():
                archive.read(name)
        assert caught.value.cap == "archive_ratio"
        assert caught.value.member is not None
        assert archive.inflated == bound + 1

    def test_a_forged_size_is_read_one_byte_past_and_no_further(self, liar: bytes) -> None:
        archive = Archive("rows.zip", liar, ArchiveCaps(uncompressed_bytes=2 * MIB))
        with pytest.raises(ArchiveTooLarge) as caught:
            archive.read("liar.jsonl")
        assert (caught.value.member, caught.value.cap) == ("liar.jsonl", "declared_size")
        # 32 MiB are in the member; 2 MiB and one byte were inflated.
        assert archive.inflated == 2 * MIB + 1

    def test_rows_are_parsed_as_the_member_inflates(self) -> None:
        # Bad lines from the third on, then 16 MiB of rows: the parser names every bad line up
        # to the cap on errors an answer lists, and stops there, having inflated one chunk.
        bad = b"{not json\n" * MAX_FIELD_ERRORS
        archive_bytes = deflated("rows.jsonl", iter([ROW * 2, bad, *rows_of(16)]))
        caps = ArchiveCaps(uncompressed_bytes=32 * MIB, ratio=1000)
        archive = Archive("rows.zip", archive_bytes, caps)
        with archive.open("rows.jsonl") as stream, pytest.raises(DatasetFormatErrors) as caught:
            read_records("rows.jsonl", stream, [])
        assert [error.line for error in caught.value.errors] == list(range(3, 3 + MAX_FIELD_ERRORS))
        assert archive.inflated <= CHUNK_BYTES


class TestSettings:
    def test_the_uncompressed_cap_defaults_to_the_upload_cap(self) -> None:
        settings = Settings(max_dataset_bytes=5 * MIB)
        assert settings.max_archive_bytes is None
        assert settings.archive_bytes_cap == 5 * MIB
        assert Settings(max_dataset_bytes=5 * MIB, max_archive_bytes=MIB).archive_bytes_cap == MIB

    def test_an_uncompressed_cap_over_the_upload_cap_is_refused(self) -> None:
        with pytest.raises(ValidationError) as caught:
            Settings(max_dataset_bytes=MIB, max_archive_bytes=2 * MIB)
        assert "LOUPE_MAX_ARCHIVE_BYTES=2097152 is more than LOUPE_MAX_DATASET_BYTES" in str(
            caught.value
        )

    def test_loupe_does_not_start_with_it(self, tmp_path: Path) -> None:
        env = {k: v for k, v in os.environ.items() if not k.startswith("LOUPE_")}
        env |= {
            "LOUPE_DATABASE_URL": f"sqlite:///{tmp_path}/loupe.db",
            "LOUPE_MAX_ARCHIVE_BYTES": str(4 * 1024 * MIB),
        }
        started = subprocess.run(
            [str(LOUPE), "tenants", "limits", "--tenant", "acme"],
            env=env,
            cwd=tmp_path,
            capture_output=True,
            text=True,
        )
        assert started.returncode == 2, started.stderr
        assert "loupe: LOUPE_MAX_ARCHIVE_BYTES=4294967296 is more than" in started.stderr


def listing_only(entries: int) -> bytes:
    """A zip whose central directory lists `entries` entries, every one the same empty member
    (47 bytes each): a directory bomb, small to send and costly to read whole."""
    name = b"a"
    local = struct.pack("<IHHHHHIIIHH", 0x04034B50, 20, 0, 0, 0, 0, 0, 0, 0, len(name), 0) + name
    entry = struct.pack(
        "<IHHHHHHIIIHHHHHII", 0x02014B50, 20, 20, 0, 0, 0, 0, 0, 0, 0, len(name), 0, 0, 0, 0, 0, 0
    )
    directory = (entry + name) * entries
    # The end record may say anything: zipfile reads the directory by its size.
    end = struct.pack("<IHHHHIIH", 0x06054B50, 0, 0, 1, 1, len(directory), len(local), 0)
    return local + directory + end


class TestDirectoryBombs:
    def test_a_directory_past_the_members_cap_is_refused_before_it_is_read(self, api: Api) -> None:
        # 100,000 entries in 4.7 MB: zipfile built an object per entry (some 40 MB) before the
        # cap was checked, so a 512 MiB upload took gigabytes. Python's allocations during the
        # request are traced: the upload's own copies, not the entries.
        archive = listing_only(100_000)
        with api.client(api.new_key()) as client:
            tracemalloc.start()
            try:
                problem = refused_413(upload(client, "rows.zip", archive, "general_vqa"))
                _, peak = tracemalloc.get_traced_memory()
            finally:
                tracemalloc.stop()
        assert f"at most {api.settings.max_archive_members}" in problem["detail"]
        assert "LOUPE_MAX_ARCHIVE_MEMBERS" in problem["detail"]
        assert peak < 4 * len(archive), peak
