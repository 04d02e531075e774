"""Candidate model request and response bodies."""

from datetime import datetime
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, field_validator

from app.schemas import ListPage, http_url


class CandidateModelCreate(BaseModel):
    model_config = ConfigDict(extra="forbid")

    base_url: str = Field(
        min_length=1,
        max_length=2048,
        description="The OpenAI-compatible API root, e.g. `https://api.openai.com/v1`.",
    )
    model: str = Field(min_length=1, max_length=256, description="The model name to request.")
    api_key: str | None = Field(
        default=None,
        max_length=4096,
        description="Stored encrypted; never returned. Omit for endpoints without auth.",
    )
    name: str | None = Field(default=None, max_length=256)

    @field_validator("base_url")
    @classmethod
    def _http_url(cls, url: str) -> str:
        return http_url(url, "; send the key as api_key").rstrip("/")


class CandidateModel(BaseModel):
    object: Literal["model"] = "model"
    id: str
    name: str | None
    base_url: str
    model: str
    has_api_key: bool
    created_at: datetime


class CandidateModelList(ListPage[CandidateModel]):
    pass
