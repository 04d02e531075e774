from typing import Any

from sqlalchemy import ForeignKey, Integer, String, Text, UniqueConstraint
from sqlalchemy.orm import Mapped, mapped_column

from app.db import Base, JSONType


class DatasetRow(Base):
    """One validated sample; images and audio in `messages` are `blob:sha256:` references."""

    __tablename__ = "dataset_row"
    __table_args__ = (UniqueConstraint("dataset_id", "subset", "index"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    dataset_id: Mapped[str] = mapped_column(ForeignKey("dataset.id", ondelete="CASCADE"))
    subset: Mapped[str] = mapped_column(String(256))
    index: Mapped[int] = mapped_column(Integer)
    line: Mapped[int] = mapped_column(Integer)
    kind: Mapped[str] = mapped_column(String(8))
    messages: Mapped[list[dict[str, Any]]] = mapped_column(JSONType)
    answer: Mapped[str | None] = mapped_column(Text, nullable=True)
    labels: Mapped[list[str] | None] = mapped_column(JSONType, nullable=True)
    options: Mapped[list[str] | None] = mapped_column(JSONType, nullable=True)
    extra: Mapped[dict[str, Any] | None] = mapped_column(JSONType, nullable=True)
