from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..models.online_rule_create_target import check_online_rule_create_target
from ..models.online_rule_create_target import OnlineRuleCreateTarget
from ..types import UNSET, Unset
from typing import cast

if TYPE_CHECKING:
  from ..models.alert_settings import AlertSettings
  from ..models.answer_relevancy_spec import AnswerRelevancySpec
  from ..models.argument_correctness_spec import ArgumentCorrectnessSpec
  from ..models.bleu_spec import BleuSpec
  from ..models.choice_accuracy_spec import ChoiceAccuracySpec
  from ..models.condition import Condition
  from ..models.contextual_precision_spec import ContextualPrecisionSpec
  from ..models.contextual_recall_spec import ContextualRecallSpec
  from ..models.contextual_relevancy_spec import ContextualRelevancySpec
  from ..models.conversation_completeness_spec import ConversationCompletenessSpec
  from ..models.conversational_g_eval_spec import ConversationalGEvalSpec
  from ..models.exact_match_spec import ExactMatchSpec
  from ..models.faithfulness_spec import FaithfulnessSpec
  from ..models.g_eval_spec import GEvalSpec
  from ..models.image_coherence_spec import ImageCoherenceSpec
  from ..models.image_editing_spec import ImageEditingSpec
  from ..models.image_helpfulness_spec import ImageHelpfulnessSpec
  from ..models.image_reference_spec import ImageReferenceSpec
  from ..models.judge_config import JudgeConfig
  from ..models.knowledge_retention_spec import KnowledgeRetentionSpec
  from ..models.llm_accuracy_spec import LlmAccuracySpec
  from ..models.online_rule_create_export_headers_type_0 import OnlineRuleCreateExportHeadersType0
  from ..models.pairwise_spec import PairwiseSpec
  from ..models.psnr_spec import PsnrSpec
  from ..models.role_adherence_spec import RoleAdherenceSpec
  from ..models.rouge_spec import RougeSpec
  from ..models.sampling import Sampling
  from ..models.ssim_spec import SsimSpec
  from ..models.task_completion_spec import TaskCompletionSpec
  from ..models.text_to_image_spec import TextToImageSpec
  from ..models.tool_correctness_spec import ToolCorrectnessSpec
  from ..models.turn_contextual_relevancy_spec import TurnContextualRelevancySpec
  from ..models.turn_faithfulness_spec import TurnFaithfulnessSpec
  from ..models.turn_relevancy_spec import TurnRelevancySpec





T = TypeVar("T", bound="OnlineRuleCreate")



@_attrs_define
class OnlineRuleCreate:
    """ 
        Attributes:
            metrics (list[AnswerRelevancySpec | ArgumentCorrectnessSpec | BleuSpec | ChoiceAccuracySpec |
                ContextualPrecisionSpec | ContextualRecallSpec | ContextualRelevancySpec | ConversationalGEvalSpec |
                ConversationCompletenessSpec | ExactMatchSpec | FaithfulnessSpec | GEvalSpec | ImageCoherenceSpec |
                ImageEditingSpec | ImageHelpfulnessSpec | ImageReferenceSpec | KnowledgeRetentionSpec | LlmAccuracySpec |
                PairwiseSpec | PsnrSpec | RoleAdherenceSpec | RougeSpec | SsimSpec | TaskCompletionSpec | TextToImageSpec |
                ToolCorrectnessSpec | TurnContextualRelevancySpec | TurnFaithfulnessSpec | TurnRelevancySpec]): As in an
                evaluation (at most LOUPE_MAX_METRICS); a call gives `input`, `actual_output` and, from the trace's retrieval
                spans, `retrieval_context`; a conversation (`target: conversation`) gives `turns` and, from its calls' system
                instructions, `chatbot_role`. A `span` rule takes single-turn metrics, a `conversation` rule conversational ones
                (a misfit is a 422 naming `metrics[i]`).
            name (str):
            sampling (Sampling): Which matching calls are judged: a share of traces, chosen by their trace id, so every
                API process samples a trace the same way and a trace's calls are judged together.
            alert (AlertSettings | None | Unset): None: no alert.
            daily_usd (float | None | Unset): What its judge calls may cost per UTC day, counted at LOUPE_MODEL_PRICES;
                none: no cap. Not enforced for a judge model without a price there (the rule's `warnings` say so).
            enabled (bool | Unset):  Default: True.
            export_endpoint (None | str | Unset): OTLP/HTTP base URL its scores are sent to as OpenTelemetry
                `gen_ai.evaluation.result` log records (`/v1/logs` is appended), under the webhook address policy; none: the
                server's `LOUPE_OTLP_EXPORT_ENDPOINT`, if set.
            export_headers (None | OnlineRuleCreateExportHeadersType0 | Unset): Headers sent with every export to its own
                `export_endpoint` (a hosted collector's key: `x-honeycomb-team`, `Authorization`, `DD-API-KEY`), at most 16 RFC
                9110 names to printable values, 8 KiB in all; no hop-by-hop or framing header (`Host`, `Content-Type`, `Content-
                Length`, `Transfer-Encoding`, `Connection`, ...). Stored encrypted, never returned: a rule shows
                `export_header_names`.
            filter_ (list[Condition] | Unset): Conditions a span must all meet; none: every GenAI call.
            judge (JudgeConfig | None | Unset):
            target (OnlineRuleCreateTarget | Unset): `span`: each call is judged on its own. `conversation`: the calls of a
                `gen_ai.conversation.id` (else `session.id`) held until it has been idle LOUPE_ONLINE_CONVERSATION_IDLE_SECONDS,
                then judged as one conversational test case (sampled by a hash of the conversation id; a call naming none is
                skipped `no_conversation_id`, or `conversation_id_dropped` when its span dropped attributes). Default: 'span'.
     """

    metrics: list[AnswerRelevancySpec | ArgumentCorrectnessSpec | BleuSpec | ChoiceAccuracySpec | ContextualPrecisionSpec | ContextualRecallSpec | ContextualRelevancySpec | ConversationalGEvalSpec | ConversationCompletenessSpec | ExactMatchSpec | FaithfulnessSpec | GEvalSpec | ImageCoherenceSpec | ImageEditingSpec | ImageHelpfulnessSpec | ImageReferenceSpec | KnowledgeRetentionSpec | LlmAccuracySpec | PairwiseSpec | PsnrSpec | RoleAdherenceSpec | RougeSpec | SsimSpec | TaskCompletionSpec | TextToImageSpec | ToolCorrectnessSpec | TurnContextualRelevancySpec | TurnFaithfulnessSpec | TurnRelevancySpec]
    name: str
    sampling: Sampling
    alert: AlertSettings | None | Unset = UNSET
    daily_usd: float | None | Unset = UNSET
    enabled: bool | Unset = True
    export_endpoint: None | str | Unset = UNSET
    export_headers: None | OnlineRuleCreateExportHeadersType0 | Unset = UNSET
    filter_: list[Condition] | Unset = UNSET
    judge: JudgeConfig | None | Unset = UNSET
    target: OnlineRuleCreateTarget | Unset = 'span'





    def to_dict(self) -> dict[str, Any]:
        from ..models.alert_settings import AlertSettings # noqa: PLC0415
        from ..models.answer_relevancy_spec import AnswerRelevancySpec # noqa: PLC0415
        from ..models.argument_correctness_spec import ArgumentCorrectnessSpec # noqa: PLC0415
        from ..models.bleu_spec import BleuSpec # noqa: PLC0415
        from ..models.choice_accuracy_spec import ChoiceAccuracySpec # noqa: PLC0415
        from ..models.condition import Condition # noqa: PLC0415
        from ..models.contextual_precision_spec import ContextualPrecisionSpec # noqa: PLC0415
        from ..models.contextual_recall_spec import ContextualRecallSpec # noqa: PLC0415
        from ..models.contextual_relevancy_spec import ContextualRelevancySpec # noqa: PLC0415
        from ..models.conversation_completeness_spec import ConversationCompletenessSpec # noqa: PLC0415
        from ..models.conversational_g_eval_spec import ConversationalGEvalSpec # noqa: PLC0415
        from ..models.exact_match_spec import ExactMatchSpec # noqa: PLC0415
        from ..models.faithfulness_spec import FaithfulnessSpec # noqa: PLC0415
        from ..models.g_eval_spec import GEvalSpec # noqa: PLC0415
        from ..models.image_coherence_spec import ImageCoherenceSpec # noqa: PLC0415
        from ..models.image_editing_spec import ImageEditingSpec # noqa: PLC0415
        from ..models.image_helpfulness_spec import ImageHelpfulnessSpec # noqa: PLC0415
        from ..models.image_reference_spec import ImageReferenceSpec # noqa: PLC0415
        from ..models.judge_config import JudgeConfig # noqa: PLC0415
        from ..models.knowledge_retention_spec import KnowledgeRetentionSpec # noqa: PLC0415
        from ..models.llm_accuracy_spec import LlmAccuracySpec # noqa: PLC0415
        from ..models.online_rule_create_export_headers_type_0 import OnlineRuleCreateExportHeadersType0 # noqa: PLC0415
        from ..models.pairwise_spec import PairwiseSpec # noqa: PLC0415
        from ..models.psnr_spec import PsnrSpec # noqa: PLC0415
        from ..models.role_adherence_spec import RoleAdherenceSpec # noqa: PLC0415
        from ..models.rouge_spec import RougeSpec # noqa: PLC0415
        from ..models.sampling import Sampling # noqa: PLC0415
        from ..models.ssim_spec import SsimSpec # noqa: PLC0415
        from ..models.task_completion_spec import TaskCompletionSpec # noqa: PLC0415
        from ..models.text_to_image_spec import TextToImageSpec # noqa: PLC0415
        from ..models.tool_correctness_spec import ToolCorrectnessSpec # noqa: PLC0415
        from ..models.turn_contextual_relevancy_spec import TurnContextualRelevancySpec # noqa: PLC0415
        from ..models.turn_faithfulness_spec import TurnFaithfulnessSpec # noqa: PLC0415
        from ..models.turn_relevancy_spec import TurnRelevancySpec # noqa: PLC0415
        metrics = []
        for metrics_item_data in self.metrics:
            metrics_item: dict[str, Any]
            if isinstance(metrics_item_data, ExactMatchSpec):
                metrics_item = metrics_item_data.to_dict()
            elif isinstance(metrics_item_data, ChoiceAccuracySpec):
                metrics_item = metrics_item_data.to_dict()
            elif isinstance(metrics_item_data, BleuSpec):
                metrics_item = metrics_item_data.to_dict()
            elif isinstance(metrics_item_data, RougeSpec):
                metrics_item = metrics_item_data.to_dict()
            elif isinstance(metrics_item_data, GEvalSpec):
                metrics_item = metrics_item_data.to_dict()
            elif isinstance(metrics_item_data, FaithfulnessSpec):
                metrics_item = metrics_item_data.to_dict()
            elif isinstance(metrics_item_data, ContextualPrecisionSpec):
                metrics_item = metrics_item_data.to_dict()
            elif isinstance(metrics_item_data, ContextualRecallSpec):
                metrics_item = metrics_item_data.to_dict()
            elif isinstance(metrics_item_data, LlmAccuracySpec):
                metrics_item = metrics_item_data.to_dict()
            elif isinstance(metrics_item_data, AnswerRelevancySpec):
                metrics_item = metrics_item_data.to_dict()
            elif isinstance(metrics_item_data, ContextualRelevancySpec):
                metrics_item = metrics_item_data.to_dict()
            elif isinstance(metrics_item_data, TextToImageSpec):
                metrics_item = metrics_item_data.to_dict()
            elif isinstance(metrics_item_data, ImageEditingSpec):
                metrics_item = metrics_item_data.to_dict()
            elif isinstance(metrics_item_data, ImageCoherenceSpec):
                metrics_item = metrics_item_data.to_dict()
            elif isinstance(metrics_item_data, ImageHelpfulnessSpec):
                metrics_item = metrics_item_data.to_dict()
            elif isinstance(metrics_item_data, ImageReferenceSpec):
                metrics_item = metrics_item_data.to_dict()
            elif isinstance(metrics_item_data, PsnrSpec):
                metrics_item = metrics_item_data.to_dict()
            elif isinstance(metrics_item_data, SsimSpec):
                metrics_item = metrics_item_data.to_dict()
            elif isinstance(metrics_item_data, PairwiseSpec):
                metrics_item = metrics_item_data.to_dict()
            elif isinstance(metrics_item_data, KnowledgeRetentionSpec):
                metrics_item = metrics_item_data.to_dict()
            elif isinstance(metrics_item_data, RoleAdherenceSpec):
                metrics_item = metrics_item_data.to_dict()
            elif isinstance(metrics_item_data, ConversationalGEvalSpec):
                metrics_item = metrics_item_data.to_dict()
            elif isinstance(metrics_item_data, TaskCompletionSpec):
                metrics_item = metrics_item_data.to_dict()
            elif isinstance(metrics_item_data, TurnRelevancySpec):
                metrics_item = metrics_item_data.to_dict()
            elif isinstance(metrics_item_data, ConversationCompletenessSpec):
                metrics_item = metrics_item_data.to_dict()
            elif isinstance(metrics_item_data, ToolCorrectnessSpec):
                metrics_item = metrics_item_data.to_dict()
            elif isinstance(metrics_item_data, ArgumentCorrectnessSpec):
                metrics_item = metrics_item_data.to_dict()
            elif isinstance(metrics_item_data, TurnFaithfulnessSpec):
                metrics_item = metrics_item_data.to_dict()
            else:
                metrics_item = metrics_item_data.to_dict()

            metrics.append(metrics_item)



        name = self.name

        sampling = self.sampling.to_dict()

        alert: dict[str, Any] | None | Unset
        if isinstance(self.alert, Unset):
            alert = UNSET
        elif isinstance(self.alert, AlertSettings):
            alert = self.alert.to_dict()
        else:
            alert = self.alert

        daily_usd: float | None | Unset
        if isinstance(self.daily_usd, Unset):
            daily_usd = UNSET
        else:
            daily_usd = self.daily_usd

        enabled = self.enabled

        export_endpoint: None | str | Unset
        if isinstance(self.export_endpoint, Unset):
            export_endpoint = UNSET
        else:
            export_endpoint = self.export_endpoint

        export_headers: dict[str, Any] | None | Unset
        if isinstance(self.export_headers, Unset):
            export_headers = UNSET
        elif isinstance(self.export_headers, OnlineRuleCreateExportHeadersType0):
            export_headers = self.export_headers.to_dict()
        else:
            export_headers = self.export_headers

        filter_: list[dict[str, Any]] | Unset = UNSET
        if not isinstance(self.filter_, Unset):
            filter_ = []
            for filter_item_data in self.filter_:
                filter_item = filter_item_data.to_dict()
                filter_.append(filter_item)



        judge: dict[str, Any] | None | Unset
        if isinstance(self.judge, Unset):
            judge = UNSET
        elif isinstance(self.judge, JudgeConfig):
            judge = self.judge.to_dict()
        else:
            judge = self.judge

        target: str | Unset = UNSET
        if not isinstance(self.target, Unset):
            target = self.target



        field_dict: dict[str, Any] = {}

        field_dict.update({
            "metrics": metrics,
            "name": name,
            "sampling": sampling,
        })
        if alert is not UNSET:
            field_dict["alert"] = alert
        if daily_usd is not UNSET:
            field_dict["daily_usd"] = daily_usd
        if enabled is not UNSET:
            field_dict["enabled"] = enabled
        if export_endpoint is not UNSET:
            field_dict["export_endpoint"] = export_endpoint
        if export_headers is not UNSET:
            field_dict["export_headers"] = export_headers
        if filter_ is not UNSET:
            field_dict["filter"] = filter_
        if judge is not UNSET:
            field_dict["judge"] = judge
        if target is not UNSET:
            field_dict["target"] = target

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.alert_settings import AlertSettings # noqa: PLC0415
        from ..models.answer_relevancy_spec import AnswerRelevancySpec # noqa: PLC0415
        from ..models.argument_correctness_spec import ArgumentCorrectnessSpec # noqa: PLC0415
        from ..models.bleu_spec import BleuSpec # noqa: PLC0415
        from ..models.choice_accuracy_spec import ChoiceAccuracySpec # noqa: PLC0415
        from ..models.condition import Condition # noqa: PLC0415
        from ..models.contextual_precision_spec import ContextualPrecisionSpec # noqa: PLC0415
        from ..models.contextual_recall_spec import ContextualRecallSpec # noqa: PLC0415
        from ..models.contextual_relevancy_spec import ContextualRelevancySpec # noqa: PLC0415
        from ..models.conversation_completeness_spec import ConversationCompletenessSpec # noqa: PLC0415
        from ..models.conversational_g_eval_spec import ConversationalGEvalSpec # noqa: PLC0415
        from ..models.exact_match_spec import ExactMatchSpec # noqa: PLC0415
        from ..models.faithfulness_spec import FaithfulnessSpec # noqa: PLC0415
        from ..models.g_eval_spec import GEvalSpec # noqa: PLC0415
        from ..models.image_coherence_spec import ImageCoherenceSpec # noqa: PLC0415
        from ..models.image_editing_spec import ImageEditingSpec # noqa: PLC0415
        from ..models.image_helpfulness_spec import ImageHelpfulnessSpec # noqa: PLC0415
        from ..models.image_reference_spec import ImageReferenceSpec # noqa: PLC0415
        from ..models.judge_config import JudgeConfig # noqa: PLC0415
        from ..models.knowledge_retention_spec import KnowledgeRetentionSpec # noqa: PLC0415
        from ..models.llm_accuracy_spec import LlmAccuracySpec # noqa: PLC0415
        from ..models.online_rule_create_export_headers_type_0 import OnlineRuleCreateExportHeadersType0 # noqa: PLC0415
        from ..models.pairwise_spec import PairwiseSpec # noqa: PLC0415
        from ..models.psnr_spec import PsnrSpec # noqa: PLC0415
        from ..models.role_adherence_spec import RoleAdherenceSpec # noqa: PLC0415
        from ..models.rouge_spec import RougeSpec # noqa: PLC0415
        from ..models.sampling import Sampling # noqa: PLC0415
        from ..models.ssim_spec import SsimSpec # noqa: PLC0415
        from ..models.task_completion_spec import TaskCompletionSpec # noqa: PLC0415
        from ..models.text_to_image_spec import TextToImageSpec # noqa: PLC0415
        from ..models.tool_correctness_spec import ToolCorrectnessSpec # noqa: PLC0415
        from ..models.turn_contextual_relevancy_spec import TurnContextualRelevancySpec # noqa: PLC0415
        from ..models.turn_faithfulness_spec import TurnFaithfulnessSpec # noqa: PLC0415
        from ..models.turn_relevancy_spec import TurnRelevancySpec # noqa: PLC0415
        d = dict(src_dict)
        metrics = []
        _metrics = d.pop("metrics")
        for metrics_item_data in (_metrics):
            def _parse_metrics_item(data: object) -> AnswerRelevancySpec | ArgumentCorrectnessSpec | BleuSpec | ChoiceAccuracySpec | ContextualPrecisionSpec | ContextualRecallSpec | ContextualRelevancySpec | ConversationalGEvalSpec | ConversationCompletenessSpec | ExactMatchSpec | FaithfulnessSpec | GEvalSpec | ImageCoherenceSpec | ImageEditingSpec | ImageHelpfulnessSpec | ImageReferenceSpec | KnowledgeRetentionSpec | LlmAccuracySpec | PairwiseSpec | PsnrSpec | RoleAdherenceSpec | RougeSpec | SsimSpec | TaskCompletionSpec | TextToImageSpec | ToolCorrectnessSpec | TurnContextualRelevancySpec | TurnFaithfulnessSpec | TurnRelevancySpec:
                try:
                    if not isinstance(data, dict):
                        raise TypeError()
                    metrics_item_type_0 = ExactMatchSpec.from_dict(data)



                    return metrics_item_type_0
                except (TypeError, ValueError, AttributeError, KeyError):
                    pass
                try:
                    if not isinstance(data, dict):
                        raise TypeError()
                    metrics_item_type_1 = ChoiceAccuracySpec.from_dict(data)



                    return metrics_item_type_1
                except (TypeError, ValueError, AttributeError, KeyError):
                    pass
                try:
                    if not isinstance(data, dict):
                        raise TypeError()
                    metrics_item_type_2 = BleuSpec.from_dict(data)



                    return metrics_item_type_2
                except (TypeError, ValueError, AttributeError, KeyError):
                    pass
                try:
                    if not isinstance(data, dict):
                        raise TypeError()
                    metrics_item_type_3 = RougeSpec.from_dict(data)



                    return metrics_item_type_3
                except (TypeError, ValueError, AttributeError, KeyError):
                    pass
                try:
                    if not isinstance(data, dict):
                        raise TypeError()
                    metrics_item_type_4 = GEvalSpec.from_dict(data)



                    return metrics_item_type_4
                except (TypeError, ValueError, AttributeError, KeyError):
                    pass
                try:
                    if not isinstance(data, dict):
                        raise TypeError()
                    metrics_item_type_5 = FaithfulnessSpec.from_dict(data)



                    return metrics_item_type_5
                except (TypeError, ValueError, AttributeError, KeyError):
                    pass
                try:
                    if not isinstance(data, dict):
                        raise TypeError()
                    metrics_item_type_6 = ContextualPrecisionSpec.from_dict(data)



                    return metrics_item_type_6
                except (TypeError, ValueError, AttributeError, KeyError):
                    pass
                try:
                    if not isinstance(data, dict):
                        raise TypeError()
                    metrics_item_type_7 = ContextualRecallSpec.from_dict(data)



                    return metrics_item_type_7
                except (TypeError, ValueError, AttributeError, KeyError):
                    pass
                try:
                    if not isinstance(data, dict):
                        raise TypeError()
                    metrics_item_type_8 = LlmAccuracySpec.from_dict(data)



                    return metrics_item_type_8
                except (TypeError, ValueError, AttributeError, KeyError):
                    pass
                try:
                    if not isinstance(data, dict):
                        raise TypeError()
                    metrics_item_type_9 = AnswerRelevancySpec.from_dict(data)



                    return metrics_item_type_9
                except (TypeError, ValueError, AttributeError, KeyError):
                    pass
                try:
                    if not isinstance(data, dict):
                        raise TypeError()
                    metrics_item_type_10 = ContextualRelevancySpec.from_dict(data)



                    return metrics_item_type_10
                except (TypeError, ValueError, AttributeError, KeyError):
                    pass
                try:
                    if not isinstance(data, dict):
                        raise TypeError()
                    metrics_item_type_11 = TextToImageSpec.from_dict(data)



                    return metrics_item_type_11
                except (TypeError, ValueError, AttributeError, KeyError):
                    pass
                try:
                    if not isinstance(data, dict):
                        raise TypeError()
                    metrics_item_type_12 = ImageEditingSpec.from_dict(data)



                    return metrics_item_type_12
                except (TypeError, ValueError, AttributeError, KeyError):
                    pass
                try:
                    if not isinstance(data, dict):
                        raise TypeError()
                    metrics_item_type_13 = ImageCoherenceSpec.from_dict(data)



                    return metrics_item_type_13
                except (TypeError, ValueError, AttributeError, KeyError):
                    pass
                try:
                    if not isinstance(data, dict):
                        raise TypeError()
                    metrics_item_type_14 = ImageHelpfulnessSpec.from_dict(data)



                    return metrics_item_type_14
                except (TypeError, ValueError, AttributeError, KeyError):
                    pass
                try:
                    if not isinstance(data, dict):
                        raise TypeError()
                    metrics_item_type_15 = ImageReferenceSpec.from_dict(data)



                    return metrics_item_type_15
                except (TypeError, ValueError, AttributeError, KeyError):
                    pass
                try:
                    if not isinstance(data, dict):
                        raise TypeError()
                    metrics_item_type_16 = PsnrSpec.from_dict(data)



                    return metrics_item_type_16
                except (TypeError, ValueError, AttributeError, KeyError):
                    pass
                try:
                    if not isinstance(data, dict):
                        raise TypeError()
                    metrics_item_type_17 = SsimSpec.from_dict(data)



                    return metrics_item_type_17
                except (TypeError, ValueError, AttributeError, KeyError):
                    pass
                try:
                    if not isinstance(data, dict):
                        raise TypeError()
                    metrics_item_type_18 = PairwiseSpec.from_dict(data)



                    return metrics_item_type_18
                except (TypeError, ValueError, AttributeError, KeyError):
                    pass
                try:
                    if not isinstance(data, dict):
                        raise TypeError()
                    metrics_item_type_19 = KnowledgeRetentionSpec.from_dict(data)



                    return metrics_item_type_19
                except (TypeError, ValueError, AttributeError, KeyError):
                    pass
                try:
                    if not isinstance(data, dict):
                        raise TypeError()
                    metrics_item_type_20 = RoleAdherenceSpec.from_dict(data)



                    return metrics_item_type_20
                except (TypeError, ValueError, AttributeError, KeyError):
                    pass
                try:
                    if not isinstance(data, dict):
                        raise TypeError()
                    metrics_item_type_21 = ConversationalGEvalSpec.from_dict(data)



                    return metrics_item_type_21
                except (TypeError, ValueError, AttributeError, KeyError):
                    pass
                try:
                    if not isinstance(data, dict):
                        raise TypeError()
                    metrics_item_type_22 = TaskCompletionSpec.from_dict(data)



                    return metrics_item_type_22
                except (TypeError, ValueError, AttributeError, KeyError):
                    pass
                try:
                    if not isinstance(data, dict):
                        raise TypeError()
                    metrics_item_type_23 = TurnRelevancySpec.from_dict(data)



                    return metrics_item_type_23
                except (TypeError, ValueError, AttributeError, KeyError):
                    pass
                try:
                    if not isinstance(data, dict):
                        raise TypeError()
                    metrics_item_type_24 = ConversationCompletenessSpec.from_dict(data)



                    return metrics_item_type_24
                except (TypeError, ValueError, AttributeError, KeyError):
                    pass
                try:
                    if not isinstance(data, dict):
                        raise TypeError()
                    metrics_item_type_25 = ToolCorrectnessSpec.from_dict(data)



                    return metrics_item_type_25
                except (TypeError, ValueError, AttributeError, KeyError):
                    pass
                try:
                    if not isinstance(data, dict):
                        raise TypeError()
                    metrics_item_type_26 = ArgumentCorrectnessSpec.from_dict(data)



                    return metrics_item_type_26
                except (TypeError, ValueError, AttributeError, KeyError):
                    pass
                try:
                    if not isinstance(data, dict):
                        raise TypeError()
                    metrics_item_type_27 = TurnFaithfulnessSpec.from_dict(data)



                    return metrics_item_type_27
                except (TypeError, ValueError, AttributeError, KeyError):
                    pass
                if not isinstance(data, dict):
                    raise TypeError()
                metrics_item_type_28 = TurnContextualRelevancySpec.from_dict(data)



                return metrics_item_type_28

            metrics_item = _parse_metrics_item(metrics_item_data)

            metrics.append(metrics_item)


        name = d.pop("name")

        sampling = Sampling.from_dict(d.pop("sampling"))




        def _parse_alert(data: object) -> AlertSettings | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                alert_type_0 = AlertSettings.from_dict(data)



                return alert_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(AlertSettings | None | Unset, data)

        alert = _parse_alert(d.pop("alert", UNSET))


        def _parse_daily_usd(data: object) -> float | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(float | None | Unset, data)

        daily_usd = _parse_daily_usd(d.pop("daily_usd", UNSET))


        enabled = d.pop("enabled", UNSET)

        def _parse_export_endpoint(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        export_endpoint = _parse_export_endpoint(d.pop("export_endpoint", UNSET))


        def _parse_export_headers(data: object) -> None | OnlineRuleCreateExportHeadersType0 | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                export_headers_type_0 = OnlineRuleCreateExportHeadersType0.from_dict(data)



                return export_headers_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(None | OnlineRuleCreateExportHeadersType0 | Unset, data)

        export_headers = _parse_export_headers(d.pop("export_headers", UNSET))


        _filter_ = d.pop("filter", UNSET)
        filter_: list[Condition] | Unset = UNSET
        if _filter_ is not UNSET:
            filter_ = []
            for filter_item_data in _filter_:
                filter_item = Condition.from_dict(filter_item_data)



                filter_.append(filter_item)


        def _parse_judge(data: object) -> JudgeConfig | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                judge_type_0 = JudgeConfig.from_dict(data)



                return judge_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(JudgeConfig | None | Unset, data)

        judge = _parse_judge(d.pop("judge", UNSET))


        _target = d.pop("target", UNSET)
        target: OnlineRuleCreateTarget | Unset
        if isinstance(_target,  Unset):
            target = UNSET
        else:
            target = check_online_rule_create_target(_target)




        online_rule_create = cls(
            metrics=metrics,
            name=name,
            sampling=sampling,
            alert=alert,
            daily_usd=daily_usd,
            enabled=enabled,
            export_endpoint=export_endpoint,
            export_headers=export_headers,
            filter_=filter_,
            judge=judge,
            target=target,
        )

        return online_rule_create

