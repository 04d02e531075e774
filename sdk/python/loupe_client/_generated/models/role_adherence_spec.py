from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..types import UNSET, Unset
from typing import cast
from typing import Literal, cast

if TYPE_CHECKING:
  from ..models.guidance import Guidance
  from ..models.judge_ref import JudgeRef





T = TypeVar("T", bound="RoleAdherenceSpec")



@_attrs_define
class RoleAdherenceSpec:
    """ 
        Attributes:
            type_ (Literal['role_adherence']):
            guidance (Guidance | None | Unset): People's worked examples (`examples`: input, actual_output, their verdict
                and rationale) and rubric `notes`, added to every verdict prompt of the metric; usually proposed by an alignment
                (`POST /v1/alignments`). Part of the metric's version: a spec with guidance is a new version.
            include_reason (bool | Unset):  Default: True.
            judge (JudgeRef | None | Unset): This metric's own judge, a model registered with POST /v1/models (defaults to
                the evaluation's `judge`, then the server's, LOUPE_JUDGE_*); `samples` to judge each output K times, a `panel`
                of judges.
            model (None | str | Unset): Judge model; defaults to the evaluation's `judge.model`.
            name (None | str | Unset): Name results are reported under; defaults to the metric type.
            strict_mode (bool | Unset): Binary scoring: threshold becomes 1 and lower scores become 0. Default: False.
            threshold (float | Unset): `passed = score >= threshold`. Default: 0.5.
     """

    type_: Literal['role_adherence']
    guidance: Guidance | None | Unset = UNSET
    include_reason: bool | Unset = True
    judge: JudgeRef | None | Unset = UNSET
    model: None | str | Unset = UNSET
    name: None | str | Unset = UNSET
    strict_mode: bool | Unset = False
    threshold: float | Unset = 0.5





    def to_dict(self) -> dict[str, Any]:
        from ..models.guidance import Guidance # noqa: PLC0415
        from ..models.judge_ref import JudgeRef # noqa: PLC0415
        type_ = self.type_

        guidance: dict[str, Any] | None | Unset
        if isinstance(self.guidance, Unset):
            guidance = UNSET
        elif isinstance(self.guidance, Guidance):
            guidance = self.guidance.to_dict()
        else:
            guidance = self.guidance

        include_reason = self.include_reason

        judge: dict[str, Any] | None | Unset
        if isinstance(self.judge, Unset):
            judge = UNSET
        elif isinstance(self.judge, JudgeRef):
            judge = self.judge.to_dict()
        else:
            judge = self.judge

        model: None | str | Unset
        if isinstance(self.model, Unset):
            model = UNSET
        else:
            model = self.model

        name: None | str | Unset
        if isinstance(self.name, Unset):
            name = UNSET
        else:
            name = self.name

        strict_mode = self.strict_mode

        threshold = self.threshold


        field_dict: dict[str, Any] = {}

        field_dict.update({
            "type": type_,
        })
        if guidance is not UNSET:
            field_dict["guidance"] = guidance
        if include_reason is not UNSET:
            field_dict["include_reason"] = include_reason
        if judge is not UNSET:
            field_dict["judge"] = judge
        if model is not UNSET:
            field_dict["model"] = model
        if name is not UNSET:
            field_dict["name"] = name
        if strict_mode is not UNSET:
            field_dict["strict_mode"] = strict_mode
        if threshold is not UNSET:
            field_dict["threshold"] = threshold

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.guidance import Guidance # noqa: PLC0415
        from ..models.judge_ref import JudgeRef # noqa: PLC0415
        d = dict(src_dict)
        type_ = cast(Literal['role_adherence'] , d.pop("type"))
        if type_ != 'role_adherence':
            raise ValueError(f"type must match const 'role_adherence', got '{type_}'")

        def _parse_guidance(data: object) -> Guidance | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                guidance_type_0 = Guidance.from_dict(data)



                return guidance_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(Guidance | None | Unset, data)

        guidance = _parse_guidance(d.pop("guidance", UNSET))


        include_reason = d.pop("include_reason", UNSET)

        def _parse_judge(data: object) -> JudgeRef | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                judge_type_0 = JudgeRef.from_dict(data)



                return judge_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(JudgeRef | None | Unset, data)

        judge = _parse_judge(d.pop("judge", UNSET))


        def _parse_model(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        model = _parse_model(d.pop("model", UNSET))


        def _parse_name(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        name = _parse_name(d.pop("name", UNSET))


        strict_mode = d.pop("strict_mode", UNSET)

        threshold = d.pop("threshold", UNSET)

        role_adherence_spec = cls(
            type_=type_,
            guidance=guidance,
            include_reason=include_reason,
            judge=judge,
            model=model,
            name=name,
            strict_mode=strict_mode,
            threshold=threshold,
        )

        return role_adherence_spec

