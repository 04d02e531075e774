"""The judge a request chooses and the judge an evaluation or metric resolved to."""

from pydantic import BaseModel, ConfigDict, Field, model_validator


class JudgeConfig(BaseModel):
    """The evaluation's judge: a model name on the server's judge, or the tenant's own model."""

    model_config = ConfigDict(extra="forbid")

    model: str | None = Field(
        default=None,
        min_length=1,
        max_length=256,
        description="Default judge model for metrics naming none.",
    )
    model_id: str | None = Field(
        default=None,
        min_length=1,
        max_length=40,
        description="A model registered with POST /v1/models, called as the judge with its own "
        "endpoint and key; without it, the server's judge (LOUPE_JUDGE_*) is used.",
    )

    @model_validator(mode="after")
    def _something(self) -> "JudgeConfig":
        if self.model is None and self.model_id is None:
            raise ValueError("give model, model_id or both")
        return self


class JudgePanelMember(BaseModel):
    """One judge of a metric's panel, as resolved at submit."""

    model: str | None = Field(description="The model name sent to the judge endpoint.")
    model_id: str | None = Field(
        description="The tenant's registered model (/v1/models); null: the server's judge."
    )
    host: str | None = Field(description="The judge endpoint's host.")
    weight: float = Field(description="The member's weight in the panel's aggregate.")


class JudgeUsed(BaseModel):
    """The judge a metric or evaluation resolved to when it was submitted."""

    model: str | None = Field(description="The model name sent to the judge endpoint.")
    model_id: str | None = Field(
        description="The tenant's registered model (/v1/models); null: the server's judge."
    )
    host: str | None = Field(description="The judge endpoint's host.")


class MetricJudgeUsed(JudgeUsed):
    """The judge a metric resolved to when it was submitted: one model, or a panel."""

    panel: list[JudgePanelMember] | None = Field(
        default=None,
        description="A metric judged by a panel (`judge.panel`): every member, in the order "
        "given; `model`, `model_id` and `host` above then name the first. Null for one judge.",
    )
