from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..types import UNSET, Unset
from typing import cast

if TYPE_CHECKING:
  from ..models.answer_relevancy_spec import AnswerRelevancySpec
  from ..models.argument_correctness_spec import ArgumentCorrectnessSpec
  from ..models.bleu_spec import BleuSpec
  from ..models.choice_accuracy_spec import ChoiceAccuracySpec
  from ..models.contextual_precision_spec import ContextualPrecisionSpec
  from ..models.contextual_recall_spec import ContextualRecallSpec
  from ..models.contextual_relevancy_spec import ContextualRelevancySpec
  from ..models.conversation_completeness_spec import ConversationCompletenessSpec
  from ..models.conversational_g_eval_spec import ConversationalGEvalSpec
  from ..models.evaluation_create_metadata_type_0 import EvaluationCreateMetadataType0
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
  from ..models.pairwise_spec import PairwiseSpec
  from ..models.psnr_spec import PsnrSpec
  from ..models.role_adherence_spec import RoleAdherenceSpec
  from ..models.rouge_spec import RougeSpec
  from ..models.ssim_spec import SsimSpec
  from ..models.task_completion_spec import TaskCompletionSpec
  from ..models.test_case_create import TestCaseCreate
  from ..models.text_to_image_spec import TextToImageSpec
  from ..models.tool_correctness_spec import ToolCorrectnessSpec
  from ..models.turn_contextual_relevancy_spec import TurnContextualRelevancySpec
  from ..models.turn_faithfulness_spec import TurnFaithfulnessSpec
  from ..models.turn_relevancy_spec import TurnRelevancySpec





T = TypeVar("T", bound="EvaluationCreate")



@_attrs_define
class EvaluationCreate:
    """ 
        Attributes:
            metrics (list[AnswerRelevancySpec | ArgumentCorrectnessSpec | BleuSpec | ChoiceAccuracySpec |
                ContextualPrecisionSpec | ContextualRecallSpec | ContextualRelevancySpec | ConversationalGEvalSpec |
                ConversationCompletenessSpec | ExactMatchSpec | FaithfulnessSpec | GEvalSpec | ImageCoherenceSpec |
                ImageEditingSpec | ImageHelpfulnessSpec | ImageReferenceSpec | KnowledgeRetentionSpec | LlmAccuracySpec |
                PairwiseSpec | PsnrSpec | RoleAdherenceSpec | RougeSpec | SsimSpec | TaskCompletionSpec | TextToImageSpec |
                ToolCorrectnessSpec | TurnContextualRelevancySpec | TurnFaithfulnessSpec | TurnRelevancySpec]): At most
                LOUPE_MAX_METRICS (default 20) per evaluation.
            cache (bool | Unset): Reuse judge answers to identical requests from this tenant's earlier evaluations; false
                keeps this evaluation's answers to itself. Default: True.
            cluster_by (None | str | Unset): A test-case metadata key every case has (e.g. the image or source document id
                when several questions share one): summaries then also report the cluster-robust standard error and interval.
            judge (JudgeConfig | None | Unset):
            metadata (EvaluationCreateMetadataType0 | None | Unset):
            name (None | str | Unset):
            open_ (bool | Unset): Take more test cases in batches (`POST /v1/evaluations/{id}/test_cases`) until `POST
                /v1/evaluations/{id}/close`: never completed while open. `test_cases` may then be empty. Default: False.
            test_cases (list[TestCaseCreate] | Unset): At most LOUPE_MAX_TEST_CASES (default 10,000) per evaluation, or per
                batch of an open one; at least one unless `open`.
            webhook_url (None | str | Unset): A registered webhook endpoint's URL; gets the terminal event.
     """

    metrics: list[AnswerRelevancySpec | ArgumentCorrectnessSpec | BleuSpec | ChoiceAccuracySpec | ContextualPrecisionSpec | ContextualRecallSpec | ContextualRelevancySpec | ConversationalGEvalSpec | ConversationCompletenessSpec | ExactMatchSpec | FaithfulnessSpec | GEvalSpec | ImageCoherenceSpec | ImageEditingSpec | ImageHelpfulnessSpec | ImageReferenceSpec | KnowledgeRetentionSpec | LlmAccuracySpec | PairwiseSpec | PsnrSpec | RoleAdherenceSpec | RougeSpec | SsimSpec | TaskCompletionSpec | TextToImageSpec | ToolCorrectnessSpec | TurnContextualRelevancySpec | TurnFaithfulnessSpec | TurnRelevancySpec]
    cache: bool | Unset = True
    cluster_by: None | str | Unset = UNSET
    judge: JudgeConfig | None | Unset = UNSET
    metadata: EvaluationCreateMetadataType0 | None | Unset = UNSET
    name: None | str | Unset = UNSET
    open_: bool | Unset = False
    test_cases: list[TestCaseCreate] | Unset = UNSET
    webhook_url: None | str | Unset = UNSET





    def to_dict(self) -> dict[str, Any]:
        from ..models.answer_relevancy_spec import AnswerRelevancySpec # noqa: PLC0415
        from ..models.argument_correctness_spec import ArgumentCorrectnessSpec # noqa: PLC0415
        from ..models.bleu_spec import BleuSpec # noqa: PLC0415
        from ..models.choice_accuracy_spec import ChoiceAccuracySpec # noqa: PLC0415
        from ..models.contextual_precision_spec import ContextualPrecisionSpec # noqa: PLC0415
        from ..models.contextual_recall_spec import ContextualRecallSpec # noqa: PLC0415
        from ..models.contextual_relevancy_spec import ContextualRelevancySpec # noqa: PLC0415
        from ..models.conversation_completeness_spec import ConversationCompletenessSpec # noqa: PLC0415
        from ..models.conversational_g_eval_spec import ConversationalGEvalSpec # noqa: PLC0415
        from ..models.evaluation_create_metadata_type_0 import EvaluationCreateMetadataType0 # noqa: PLC0415
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
        from ..models.pairwise_spec import PairwiseSpec # noqa: PLC0415
        from ..models.psnr_spec import PsnrSpec # noqa: PLC0415
        from ..models.role_adherence_spec import RoleAdherenceSpec # noqa: PLC0415
        from ..models.rouge_spec import RougeSpec # noqa: PLC0415
        from ..models.ssim_spec import SsimSpec # noqa: PLC0415
        from ..models.task_completion_spec import TaskCompletionSpec # noqa: PLC0415
        from ..models.test_case_create import TestCaseCreate # noqa: PLC0415
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



        cache = self.cache

        cluster_by: None | str | Unset
        if isinstance(self.cluster_by, Unset):
            cluster_by = UNSET
        else:
            cluster_by = self.cluster_by

        judge: dict[str, Any] | None | Unset
        if isinstance(self.judge, Unset):
            judge = UNSET
        elif isinstance(self.judge, JudgeConfig):
            judge = self.judge.to_dict()
        else:
            judge = self.judge

        metadata: dict[str, Any] | None | Unset
        if isinstance(self.metadata, Unset):
            metadata = UNSET
        elif isinstance(self.metadata, EvaluationCreateMetadataType0):
            metadata = self.metadata.to_dict()
        else:
            metadata = self.metadata

        name: None | str | Unset
        if isinstance(self.name, Unset):
            name = UNSET
        else:
            name = self.name

        open_ = self.open_

        test_cases: list[dict[str, Any]] | Unset = UNSET
        if not isinstance(self.test_cases, Unset):
            test_cases = []
            for test_cases_item_data in self.test_cases:
                test_cases_item = test_cases_item_data.to_dict()
                test_cases.append(test_cases_item)



        webhook_url: None | str | Unset
        if isinstance(self.webhook_url, Unset):
            webhook_url = UNSET
        else:
            webhook_url = self.webhook_url


        field_dict: dict[str, Any] = {}

        field_dict.update({
            "metrics": metrics,
        })
        if cache is not UNSET:
            field_dict["cache"] = cache
        if cluster_by is not UNSET:
            field_dict["cluster_by"] = cluster_by
        if judge is not UNSET:
            field_dict["judge"] = judge
        if metadata is not UNSET:
            field_dict["metadata"] = metadata
        if name is not UNSET:
            field_dict["name"] = name
        if open_ is not UNSET:
            field_dict["open"] = open_
        if test_cases is not UNSET:
            field_dict["test_cases"] = test_cases
        if webhook_url is not UNSET:
            field_dict["webhook_url"] = webhook_url

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.answer_relevancy_spec import AnswerRelevancySpec # noqa: PLC0415
        from ..models.argument_correctness_spec import ArgumentCorrectnessSpec # noqa: PLC0415
        from ..models.bleu_spec import BleuSpec # noqa: PLC0415
        from ..models.choice_accuracy_spec import ChoiceAccuracySpec # noqa: PLC0415
        from ..models.contextual_precision_spec import ContextualPrecisionSpec # noqa: PLC0415
        from ..models.contextual_recall_spec import ContextualRecallSpec # noqa: PLC0415
        from ..models.contextual_relevancy_spec import ContextualRelevancySpec # noqa: PLC0415
        from ..models.conversation_completeness_spec import ConversationCompletenessSpec # noqa: PLC0415
        from ..models.conversational_g_eval_spec import ConversationalGEvalSpec # noqa: PLC0415
        from ..models.evaluation_create_metadata_type_0 import EvaluationCreateMetadataType0 # noqa: PLC0415
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
        from ..models.pairwise_spec import PairwiseSpec # noqa: PLC0415
        from ..models.psnr_spec import PsnrSpec # noqa: PLC0415
        from ..models.role_adherence_spec import RoleAdherenceSpec # noqa: PLC0415
        from ..models.rouge_spec import RougeSpec # noqa: PLC0415
        from ..models.ssim_spec import SsimSpec # noqa: PLC0415
        from ..models.task_completion_spec import TaskCompletionSpec # noqa: PLC0415
        from ..models.test_case_create import TestCaseCreate # noqa: PLC0415
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


        cache = d.pop("cache", UNSET)

        def _parse_cluster_by(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        cluster_by = _parse_cluster_by(d.pop("cluster_by", UNSET))


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


        def _parse_metadata(data: object) -> EvaluationCreateMetadataType0 | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                metadata_type_0 = EvaluationCreateMetadataType0.from_dict(data)



                return metadata_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(EvaluationCreateMetadataType0 | None | Unset, data)

        metadata = _parse_metadata(d.pop("metadata", UNSET))


        def _parse_name(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        name = _parse_name(d.pop("name", UNSET))


        open_ = d.pop("open", UNSET)

        _test_cases = d.pop("test_cases", UNSET)
        test_cases: list[TestCaseCreate] | Unset = UNSET
        if _test_cases is not UNSET:
            test_cases = []
            for test_cases_item_data in _test_cases:
                test_cases_item = TestCaseCreate.from_dict(test_cases_item_data)



                test_cases.append(test_cases_item)


        def _parse_webhook_url(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        webhook_url = _parse_webhook_url(d.pop("webhook_url", UNSET))


        evaluation_create = cls(
            metrics=metrics,
            cache=cache,
            cluster_by=cluster_by,
            judge=judge,
            metadata=metadata,
            name=name,
            open_=open_,
            test_cases=test_cases,
            webhook_url=webhook_url,
        )

        return evaluation_create

