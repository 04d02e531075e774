"""Dataset response bodies (uploads are multipart forms, see endpoints.py)."""

from datetime import datetime
from typing import Any, Literal

from pydantic import BaseModel

from app.schemas import ListPage

DatasetFormatName = Literal["general_vqa", "general_vmcq", "vlmeval_mcq", "vlmeval_vqa"]


class DatasetSubset(BaseModel):
    name: str
    file: str
    rows: int
    warnings: list[str]


class Dataset(BaseModel):
    object: Literal["dataset"] = "dataset"
    id: str
    name: str
    format: DatasetFormatName
    filename: str
    row_count: int
    subsets: list[DatasetSubset]
    created_at: datetime


class DatasetRow(BaseModel):
    object: Literal["dataset.row"] = "dataset.row"
    id: str
    subset: str
    index: int
    line: int
    kind: Literal["vqa", "mcq"]
    messages: list[dict[str, Any]]
    answer: str | None
    labels: list[str] | None
    options: list[str] | None
    extra: dict[str, Any] | None


class DatasetList(ListPage[Dataset]):
    pass


class DatasetRowList(ListPage[DatasetRow]):
    pass
