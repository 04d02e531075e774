"""The `/v1/files` subset eval runs need, as the `openai` SDK reads it."""

from typing import Literal

from pydantic import BaseModel

from app.schemas import ListPage


class FileObject(BaseModel):
    id: str
    object: Literal["file"] = "file"
    bytes: int
    created_at: int
    filename: str
    purpose: str
    # Deprecated by OpenAI but still sent; the SDK reads them.
    status: Literal["processed"] = "processed"
    status_details: str | None = None
    expires_at: int | None = None


class FileDeleted(BaseModel):
    id: str
    object: Literal["file"] = "file"
    deleted: bool = True


FileList = ListPage[FileObject]
