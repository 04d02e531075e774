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
  from ..models.exact_match_spec import ExactMatchSpec
  from ..models.faithfulness_spec import FaithfulnessSpec
  from ..models.g_eval_spec import GEvalSpec
  from ..models.generation_config import GenerationConfig
  from ..models.image_coherence_spec import ImageCoherenceSpec
  from ..models.image_editing_spec import ImageEditingSpec
  from ..models.image_helpfulness_spec import ImageHelpfulnessSpec
  from ..models.image_reference_spec import ImageReferenceSpec
  from ..models.knowledge_retention_spec import KnowledgeRetentionSpec
  from ..models.llm_accuracy_spec import LlmAccuracySpec
  from ..models.pairwise_spec import PairwiseSpec
  from ..models.prediction import Prediction
  from ..models.psnr_spec import PsnrSpec
  from ..models.role_adherence_spec import RoleAdherenceSpec
  from ..models.rouge_spec import RougeSpec
  from ..models.run_create_metadata_type_0 import RunCreateMetadataType0
  from ..models.run_judge import RunJudge
  from ..models.ssim_spec import SsimSpec
  from ..models.task_completion_spec import TaskCompletionSpec
  from ..models.text_to_image_spec import TextToImageSpec
  from ..models.tool_correctness_spec import ToolCorrectnessSpec
  from ..models.turn_contextual_relevancy_spec import TurnContextualRelevancySpec
  from ..models.turn_faithfulness_spec import TurnFaithfulnessSpec
  from ..models.turn_relevancy_spec import TurnRelevancySpec





T = TypeVar("T", bound="RunCreate")



@_attrs_define
class RunCreate:
    """ 
        Attributes:
            dataset_id (str):
            cache (bool | Unset):  Default: True.
            cluster_by (None | str | Unset): A dataset column grouping correlated samples (e.g. an image id the dataset's
                rows carry, or `subset`): the report then also gives cluster-robust standard errors and intervals.
            generation (GenerationConfig | Unset): Sampling options sent with every candidate request (OpenAI Chat
                Completions names).
            judge (RunJudge | Unset):
            limit (float | int | None | Unset): Per subset, as EvalScope: an integer N takes the first N samples; a number
                written with a decimal point is a fraction f in (0, 1] and takes the first int(N × f) (so `1.0` takes every
                sample, `1` only the first).
            metadata (None | RunCreateMetadataType0 | Unset):
            metrics (list[AnswerRelevancySpec | ArgumentCorrectnessSpec | BleuSpec | ChoiceAccuracySpec |
                ContextualPrecisionSpec | ContextualRecallSpec | ContextualRelevancySpec | ConversationalGEvalSpec |
                ConversationCompletenessSpec | ExactMatchSpec | FaithfulnessSpec | GEvalSpec | ImageCoherenceSpec |
                ImageEditingSpec | ImageHelpfulnessSpec | ImageReferenceSpec | KnowledgeRetentionSpec | LlmAccuracySpec |
                PairwiseSpec | PsnrSpec | RoleAdherenceSpec | RougeSpec | SsimSpec | TaskCompletionSpec | TextToImageSpec |
                ToolCorrectnessSpec | TurnContextualRelevancySpec | TurnFaithfulnessSpec | TurnRelevancySpec] | None | Unset):
                Evaluation metric specs scored besides the run's EvalScope scorers (`g_eval`, `answer_relevancy`, …): each
                sample is a test case with `input` (the question, images in place), `actual_output` (the answer) and
                `expected_output` (the dataset's answer). The report gets a row per metric (its name, at most 32 characters) and
                subset.
            model_id (None | str | Unset): A model from POST /v1/models.
            name (None | str | Unset):
            predictions (list[Prediction] | None | Unset): Score these answers instead of calling a model (one per selected
                sample).
            subsets (list[str] | None | Unset):
            webhook_url (None | str | Unset):
     """

    dataset_id: str
    cache: bool | Unset = True
    cluster_by: None | str | Unset = UNSET
    generation: GenerationConfig | Unset = UNSET
    judge: RunJudge | Unset = UNSET
    limit: float | int | None | Unset = UNSET
    metadata: None | RunCreateMetadataType0 | Unset = UNSET
    metrics: list[AnswerRelevancySpec | ArgumentCorrectnessSpec | BleuSpec | ChoiceAccuracySpec | ContextualPrecisionSpec | ContextualRecallSpec | ContextualRelevancySpec | ConversationalGEvalSpec | ConversationCompletenessSpec | ExactMatchSpec | FaithfulnessSpec | GEvalSpec | ImageCoherenceSpec | ImageEditingSpec | ImageHelpfulnessSpec | ImageReferenceSpec | KnowledgeRetentionSpec | LlmAccuracySpec | PairwiseSpec | PsnrSpec | RoleAdherenceSpec | RougeSpec | SsimSpec | TaskCompletionSpec | TextToImageSpec | ToolCorrectnessSpec | TurnContextualRelevancySpec | TurnFaithfulnessSpec | TurnRelevancySpec] | None | Unset = UNSET
    model_id: None | str | Unset = UNSET
    name: None | str | Unset = UNSET
    predictions: list[Prediction] | None | Unset = UNSET
    subsets: list[str] | None | Unset = UNSET
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
        from ..models.exact_match_spec import ExactMatchSpec # noqa: PLC0415
        from ..models.faithfulness_spec import FaithfulnessSpec # noqa: PLC0415
        from ..models.g_eval_spec import GEvalSpec # noqa: PLC0415
        from ..models.generation_config import GenerationConfig # noqa: PLC0415
        from ..models.image_coherence_spec import ImageCoherenceSpec # noqa: PLC0415
        from ..models.image_editing_spec import ImageEditingSpec # noqa: PLC0415
        from ..models.image_helpfulness_spec import ImageHelpfulnessSpec # noqa: PLC0415
        from ..models.image_reference_spec import ImageReferenceSpec # noqa: PLC0415
        from ..models.knowledge_retention_spec import KnowledgeRetentionSpec # noqa: PLC0415
        from ..models.llm_accuracy_spec import LlmAccuracySpec # noqa: PLC0415
        from ..models.pairwise_spec import PairwiseSpec # noqa: PLC0415
        from ..models.prediction import Prediction # noqa: PLC0415
        from ..models.psnr_spec import PsnrSpec # noqa: PLC0415
        from ..models.role_adherence_spec import RoleAdherenceSpec # noqa: PLC0415
        from ..models.rouge_spec import RougeSpec # noqa: PLC0415
        from ..models.run_create_metadata_type_0 import RunCreateMetadataType0 # noqa: PLC0415
        from ..models.run_judge import RunJudge # noqa: PLC0415
        from ..models.ssim_spec import SsimSpec # noqa: PLC0415
        from ..models.task_completion_spec import TaskCompletionSpec # noqa: PLC0415
        from ..models.text_to_image_spec import TextToImageSpec # noqa: PLC0415
        from ..models.tool_correctness_spec import ToolCorrectnessSpec # noqa: PLC0415
        from ..models.turn_contextual_relevancy_spec import TurnContextualRelevancySpec # noqa: PLC0415
        from ..models.turn_faithfulness_spec import TurnFaithfulnessSpec # noqa: PLC0415
        from ..models.turn_relevancy_spec import TurnRelevancySpec # noqa: PLC0415
        dataset_id = self.dataset_id

        cache = self.cache

        cluster_by: None | str | Unset
        if isinstance(self.cluster_by, Unset):
            cluster_by = UNSET
        else:
            cluster_by = self.cluster_by

        generation: dict[str, Any] | Unset = UNSET
        if not isinstance(self.generation, Unset):
            generation = self.generation.to_dict()

        judge: dict[str, Any] | Unset = UNSET
        if not isinstance(self.judge, Unset):
            judge = self.judge.to_dict()

        limit: float | int | None | Unset
        if isinstance(self.limit, Unset):
            limit = UNSET
        else:
            limit = self.limit

        metadata: dict[str, Any] | None | Unset
        if isinstance(self.metadata, Unset):
            metadata = UNSET
        elif isinstance(self.metadata, RunCreateMetadataType0):
            metadata = self.metadata.to_dict()
        else:
            metadata = self.metadata

        metrics: list[dict[str, Any]] | None | Unset
        if isinstance(self.metrics, Unset):
            metrics = UNSET
        elif isinstance(self.metrics, list):
            metrics = []
            for metrics_type_0_item_data in self.metrics:
                metrics_type_0_item: dict[str, Any]
                if isinstance(metrics_type_0_item_data, ExactMatchSpec):
                    metrics_type_0_item = metrics_type_0_item_data.to_dict()
                elif isinstance(metrics_type_0_item_data, ChoiceAccuracySpec):
                    metrics_type_0_item = metrics_type_0_item_data.to_dict()
                elif isinstance(metrics_type_0_item_data, BleuSpec):
                    metrics_type_0_item = metrics_type_0_item_data.to_dict()
                elif isinstance(metrics_type_0_item_data, RougeSpec):
                    metrics_type_0_item = metrics_type_0_item_data.to_dict()
                elif isinstance(metrics_type_0_item_data, GEvalSpec):
                    metrics_type_0_item = metrics_type_0_item_data.to_dict()
                elif isinstance(metrics_type_0_item_data, FaithfulnessSpec):
                    metrics_type_0_item = metrics_type_0_item_data.to_dict()
                elif isinstance(metrics_type_0_item_data, ContextualPrecisionSpec):
                    metrics_type_0_item = metrics_type_0_item_data.to_dict()
                elif isinstance(metrics_type_0_item_data, ContextualRecallSpec):
                    metrics_type_0_item = metrics_type_0_item_data.to_dict()
                elif isinstance(metrics_type_0_item_data, LlmAccuracySpec):
                    metrics_type_0_item = metrics_type_0_item_data.to_dict()
                elif isinstance(metrics_type_0_item_data, AnswerRelevancySpec):
                    metrics_type_0_item = metrics_type_0_item_data.to_dict()
                elif isinstance(metrics_type_0_item_data, ContextualRelevancySpec):
                    metrics_type_0_item = metrics_type_0_item_data.to_dict()
                elif isinstance(metrics_type_0_item_data, TextToImageSpec):
                    metrics_type_0_item = metrics_type_0_item_data.to_dict()
                elif isinstance(metrics_type_0_item_data, ImageEditingSpec):
                    metrics_type_0_item = metrics_type_0_item_data.to_dict()
                elif isinstance(metrics_type_0_item_data, ImageCoherenceSpec):
                    metrics_type_0_item = metrics_type_0_item_data.to_dict()
                elif isinstance(metrics_type_0_item_data, ImageHelpfulnessSpec):
                    metrics_type_0_item = metrics_type_0_item_data.to_dict()
                elif isinstance(metrics_type_0_item_data, ImageReferenceSpec):
                    metrics_type_0_item = metrics_type_0_item_data.to_dict()
                elif isinstance(metrics_type_0_item_data, PsnrSpec):
                    metrics_type_0_item = metrics_type_0_item_data.to_dict()
                elif isinstance(metrics_type_0_item_data, SsimSpec):
                    metrics_type_0_item = metrics_type_0_item_data.to_dict()
                elif isinstance(metrics_type_0_item_data, PairwiseSpec):
                    metrics_type_0_item = metrics_type_0_item_data.to_dict()
                elif isinstance(metrics_type_0_item_data, KnowledgeRetentionSpec):
                    metrics_type_0_item = metrics_type_0_item_data.to_dict()
                elif isinstance(metrics_type_0_item_data, RoleAdherenceSpec):
                    metrics_type_0_item = metrics_type_0_item_data.to_dict()
                elif isinstance(metrics_type_0_item_data, ConversationalGEvalSpec):
                    metrics_type_0_item = metrics_type_0_item_data.to_dict()
                elif isinstance(metrics_type_0_item_data, TaskCompletionSpec):
                    metrics_type_0_item = metrics_type_0_item_data.to_dict()
                elif isinstance(metrics_type_0_item_data, TurnRelevancySpec):
                    metrics_type_0_item = metrics_type_0_item_data.to_dict()
                elif isinstance(metrics_type_0_item_data, ConversationCompletenessSpec):
                    metrics_type_0_item = metrics_type_0_item_data.to_dict()
                elif isinstance(metrics_type_0_item_data, ToolCorrectnessSpec):
                    metrics_type_0_item = metrics_type_0_item_data.to_dict()
                elif isinstance(metrics_type_0_item_data, ArgumentCorrectnessSpec):
                    metrics_type_0_item = metrics_type_0_item_data.to_dict()
                elif isinstance(metrics_type_0_item_data, TurnFaithfulnessSpec):
                    metrics_type_0_item = metrics_type_0_item_data.to_dict()
                else:
                    metrics_type_0_item = metrics_type_0_item_data.to_dict()

                metrics.append(metrics_type_0_item)


        else:
            metrics = self.metrics

        model_id: None | str | Unset
        if isinstance(self.model_id, Unset):
            model_id = UNSET
        else:
            model_id = self.model_id

        name: None | str | Unset
        if isinstance(self.name, Unset):
            name = UNSET
        else:
            name = self.name

        predictions: list[dict[str, Any]] | None | Unset
        if isinstance(self.predictions, Unset):
            predictions = UNSET
        elif isinstance(self.predictions, list):
            predictions = []
            for predictions_type_0_item_data in self.predictions:
                predictions_type_0_item = predictions_type_0_item_data.to_dict()
                predictions.append(predictions_type_0_item)


        else:
            predictions = self.predictions

        subsets: list[str] | None | Unset
        if isinstance(self.subsets, Unset):
            subsets = UNSET
        elif isinstance(self.subsets, list):
            subsets = self.subsets


        else:
            subsets = self.subsets

        webhook_url: None | str | Unset
        if isinstance(self.webhook_url, Unset):
            webhook_url = UNSET
        else:
            webhook_url = self.webhook_url


        field_dict: dict[str, Any] = {}

        field_dict.update({
            "dataset_id": dataset_id,
        })
        if cache is not UNSET:
            field_dict["cache"] = cache
        if cluster_by is not UNSET:
            field_dict["cluster_by"] = cluster_by
        if generation is not UNSET:
            field_dict["generation"] = generation
        if judge is not UNSET:
            field_dict["judge"] = judge
        if limit is not UNSET:
            field_dict["limit"] = limit
        if metadata is not UNSET:
            field_dict["metadata"] = metadata
        if metrics is not UNSET:
            field_dict["metrics"] = metrics
        if model_id is not UNSET:
            field_dict["model_id"] = model_id
        if name is not UNSET:
            field_dict["name"] = name
        if predictions is not UNSET:
            field_dict["predictions"] = predictions
        if subsets is not UNSET:
            field_dict["subsets"] = subsets
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
        from ..models.exact_match_spec import ExactMatchSpec # noqa: PLC0415
        from ..models.faithfulness_spec import FaithfulnessSpec # noqa: PLC0415
        from ..models.g_eval_spec import GEvalSpec # noqa: PLC0415
        from ..models.generation_config import GenerationConfig # noqa: PLC0415
        from ..models.image_coherence_spec import ImageCoherenceSpec # noqa: PLC0415
        from ..models.image_editing_spec import ImageEditingSpec # noqa: PLC0415
        from ..models.image_helpfulness_spec import ImageHelpfulnessSpec # noqa: PLC0415
        from ..models.image_reference_spec import ImageReferenceSpec # noqa: PLC0415
        from ..models.knowledge_retention_spec import KnowledgeRetentionSpec # noqa: PLC0415
        from ..models.llm_accuracy_spec import LlmAccuracySpec # noqa: PLC0415
        from ..models.pairwise_spec import PairwiseSpec # noqa: PLC0415
        from ..models.prediction import Prediction # noqa: PLC0415
        from ..models.psnr_spec import PsnrSpec # noqa: PLC0415
        from ..models.role_adherence_spec import RoleAdherenceSpec # noqa: PLC0415
        from ..models.rouge_spec import RougeSpec # noqa: PLC0415
        from ..models.run_create_metadata_type_0 import RunCreateMetadataType0 # noqa: PLC0415
        from ..models.run_judge import RunJudge # noqa: PLC0415
        from ..models.ssim_spec import SsimSpec # noqa: PLC0415
        from ..models.task_completion_spec import TaskCompletionSpec # noqa: PLC0415
        from ..models.text_to_image_spec import TextToImageSpec # noqa: PLC0415
        from ..models.tool_correctness_spec import ToolCorrectnessSpec # noqa: PLC0415
        from ..models.turn_contextual_relevancy_spec import TurnContextualRelevancySpec # noqa: PLC0415
        from ..models.turn_faithfulness_spec import TurnFaithfulnessSpec # noqa: PLC0415
        from ..models.turn_relevancy_spec import TurnRelevancySpec # noqa: PLC0415
        d = dict(src_dict)
        dataset_id = d.pop("dataset_id")

        cache = d.pop("cache", UNSET)

        def _parse_cluster_by(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        cluster_by = _parse_cluster_by(d.pop("cluster_by", UNSET))


        _generation = d.pop("generation", UNSET)
        generation: GenerationConfig | Unset
        if isinstance(_generation,  Unset):
            generation = UNSET
        else:
            generation = GenerationConfig.from_dict(_generation)




        _judge = d.pop("judge", UNSET)
        judge: RunJudge | Unset
        if isinstance(_judge,  Unset):
            judge = UNSET
        else:
            judge = RunJudge.from_dict(_judge)




        def _parse_limit(data: object) -> float | int | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(float | int | None | Unset, data)

        limit = _parse_limit(d.pop("limit", UNSET))


        def _parse_metadata(data: object) -> None | RunCreateMetadataType0 | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                metadata_type_0 = RunCreateMetadataType0.from_dict(data)



                return metadata_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(None | RunCreateMetadataType0 | Unset, data)

        metadata = _parse_metadata(d.pop("metadata", UNSET))


        def _parse_metrics(data: object) -> list[AnswerRelevancySpec | ArgumentCorrectnessSpec | BleuSpec | ChoiceAccuracySpec | ContextualPrecisionSpec | ContextualRecallSpec | ContextualRelevancySpec | ConversationalGEvalSpec | ConversationCompletenessSpec | ExactMatchSpec | FaithfulnessSpec | GEvalSpec | ImageCoherenceSpec | ImageEditingSpec | ImageHelpfulnessSpec | ImageReferenceSpec | KnowledgeRetentionSpec | LlmAccuracySpec | PairwiseSpec | PsnrSpec | RoleAdherenceSpec | RougeSpec | SsimSpec | TaskCompletionSpec | TextToImageSpec | ToolCorrectnessSpec | TurnContextualRelevancySpec | TurnFaithfulnessSpec | TurnRelevancySpec] | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, list):
                    raise TypeError()
                metrics_type_0 = []
                _metrics_type_0 = data
                for metrics_type_0_item_data in (_metrics_type_0):
                    def _parse_metrics_type_0_item(data: object) -> AnswerRelevancySpec | ArgumentCorrectnessSpec | BleuSpec | ChoiceAccuracySpec | ContextualPrecisionSpec | ContextualRecallSpec | ContextualRelevancySpec | ConversationalGEvalSpec | ConversationCompletenessSpec | ExactMatchSpec | FaithfulnessSpec | GEvalSpec | ImageCoherenceSpec | ImageEditingSpec | ImageHelpfulnessSpec | ImageReferenceSpec | KnowledgeRetentionSpec | LlmAccuracySpec | PairwiseSpec | PsnrSpec | RoleAdherenceSpec | RougeSpec | SsimSpec | TaskCompletionSpec | TextToImageSpec | ToolCorrectnessSpec | TurnContextualRelevancySpec | TurnFaithfulnessSpec | TurnRelevancySpec:
                        try:
                            if not isinstance(data, dict):
                                raise TypeError()
                            metrics_type_0_item_type_0 = ExactMatchSpec.from_dict(data)



                            return metrics_type_0_item_type_0
                        except (TypeError, ValueError, AttributeError, KeyError):
                            pass
                        try:
                            if not isinstance(data, dict):
                                raise TypeError()
                            metrics_type_0_item_type_1 = ChoiceAccuracySpec.from_dict(data)



                            return metrics_type_0_item_type_1
                        except (TypeError, ValueError, AttributeError, KeyError):
                            pass
                        try:
                            if not isinstance(data, dict):
                                raise TypeError()
                            metrics_type_0_item_type_2 = BleuSpec.from_dict(data)



                            return metrics_type_0_item_type_2
                        except (TypeError, ValueError, AttributeError, KeyError):
                            pass
                        try:
                            if not isinstance(data, dict):
                                raise TypeError()
                            metrics_type_0_item_type_3 = RougeSpec.from_dict(data)



                            return metrics_type_0_item_type_3
                        except (TypeError, ValueError, AttributeError, KeyError):
                            pass
                        try:
                            if not isinstance(data, dict):
                                raise TypeError()
                            metrics_type_0_item_type_4 = GEvalSpec.from_dict(data)



                            return metrics_type_0_item_type_4
                        except (TypeError, ValueError, AttributeError, KeyError):
                            pass
                        try:
                            if not isinstance(data, dict):
                                raise TypeError()
                            metrics_type_0_item_type_5 = FaithfulnessSpec.from_dict(data)



                            return metrics_type_0_item_type_5
                        except (TypeError, ValueError, AttributeError, KeyError):
                            pass
                        try:
                            if not isinstance(data, dict):
                                raise TypeError()
                            metrics_type_0_item_type_6 = ContextualPrecisionSpec.from_dict(data)



                            return metrics_type_0_item_type_6
                        except (TypeError, ValueError, AttributeError, KeyError):
                            pass
                        try:
                            if not isinstance(data, dict):
                                raise TypeError()
                            metrics_type_0_item_type_7 = ContextualRecallSpec.from_dict(data)



                            return metrics_type_0_item_type_7
                        except (TypeError, ValueError, AttributeError, KeyError):
                            pass
                        try:
                            if not isinstance(data, dict):
                                raise TypeError()
                            metrics_type_0_item_type_8 = LlmAccuracySpec.from_dict(data)



                            return metrics_type_0_item_type_8
                        except (TypeError, ValueError, AttributeError, KeyError):
                            pass
                        try:
                            if not isinstance(data, dict):
                                raise TypeError()
                            metrics_type_0_item_type_9 = AnswerRelevancySpec.from_dict(data)



                            return metrics_type_0_item_type_9
                        except (TypeError, ValueError, AttributeError, KeyError):
                            pass
                        try:
                            if not isinstance(data, dict):
                                raise TypeError()
                            metrics_type_0_item_type_10 = ContextualRelevancySpec.from_dict(data)



                            return metrics_type_0_item_type_10
                        except (TypeError, ValueError, AttributeError, KeyError):
                            pass
                        try:
                            if not isinstance(data, dict):
                                raise TypeError()
                            metrics_type_0_item_type_11 = TextToImageSpec.from_dict(data)



                            return metrics_type_0_item_type_11
                        except (TypeError, ValueError, AttributeError, KeyError):
                            pass
                        try:
                            if not isinstance(data, dict):
                                raise TypeError()
                            metrics_type_0_item_type_12 = ImageEditingSpec.from_dict(data)



                            return metrics_type_0_item_type_12
                        except (TypeError, ValueError, AttributeError, KeyError):
                            pass
                        try:
                            if not isinstance(data, dict):
                                raise TypeError()
                            metrics_type_0_item_type_13 = ImageCoherenceSpec.from_dict(data)



                            return metrics_type_0_item_type_13
                        except (TypeError, ValueError, AttributeError, KeyError):
                            pass
                        try:
                            if not isinstance(data, dict):
                                raise TypeError()
                            metrics_type_0_item_type_14 = ImageHelpfulnessSpec.from_dict(data)



                            return metrics_type_0_item_type_14
                        except (TypeError, ValueError, AttributeError, KeyError):
                            pass
                        try:
                            if not isinstance(data, dict):
                                raise TypeError()
                            metrics_type_0_item_type_15 = ImageReferenceSpec.from_dict(data)



                            return metrics_type_0_item_type_15
                        except (TypeError, ValueError, AttributeError, KeyError):
                            pass
                        try:
                            if not isinstance(data, dict):
                                raise TypeError()
                            metrics_type_0_item_type_16 = PsnrSpec.from_dict(data)



                            return metrics_type_0_item_type_16
                        except (TypeError, ValueError, AttributeError, KeyError):
                            pass
                        try:
                            if not isinstance(data, dict):
                                raise TypeError()
                            metrics_type_0_item_type_17 = SsimSpec.from_dict(data)



                            return metrics_type_0_item_type_17
                        except (TypeError, ValueError, AttributeError, KeyError):
                            pass
                        try:
                            if not isinstance(data, dict):
                                raise TypeError()
                            metrics_type_0_item_type_18 = PairwiseSpec.from_dict(data)



                            return metrics_type_0_item_type_18
                        except (TypeError, ValueError, AttributeError, KeyError):
                            pass
                        try:
                            if not isinstance(data, dict):
                                raise TypeError()
                            metrics_type_0_item_type_19 = KnowledgeRetentionSpec.from_dict(data)



                            return metrics_type_0_item_type_19
                        except (TypeError, ValueError, AttributeError, KeyError):
                            pass
                        try:
                            if not isinstance(data, dict):
                                raise TypeError()
                            metrics_type_0_item_type_20 = RoleAdherenceSpec.from_dict(data)



                            return metrics_type_0_item_type_20
                        except (TypeError, ValueError, AttributeError, KeyError):
                            pass
                        try:
                            if not isinstance(data, dict):
                                raise TypeError()
                            metrics_type_0_item_type_21 = ConversationalGEvalSpec.from_dict(data)



                            return metrics_type_0_item_type_21
                        except (TypeError, ValueError, AttributeError, KeyError):
                            pass
                        try:
                            if not isinstance(data, dict):
                                raise TypeError()
                            metrics_type_0_item_type_22 = TaskCompletionSpec.from_dict(data)



                            return metrics_type_0_item_type_22
                        except (TypeError, ValueError, AttributeError, KeyError):
                            pass
                        try:
                            if not isinstance(data, dict):
                                raise TypeError()
                            metrics_type_0_item_type_23 = TurnRelevancySpec.from_dict(data)



                            return metrics_type_0_item_type_23
                        except (TypeError, ValueError, AttributeError, KeyError):
                            pass
                        try:
                            if not isinstance(data, dict):
                                raise TypeError()
                            metrics_type_0_item_type_24 = ConversationCompletenessSpec.from_dict(data)



                            return metrics_type_0_item_type_24
                        except (TypeError, ValueError, AttributeError, KeyError):
                            pass
                        try:
                            if not isinstance(data, dict):
                                raise TypeError()
                            metrics_type_0_item_type_25 = ToolCorrectnessSpec.from_dict(data)



                            return metrics_type_0_item_type_25
                        except (TypeError, ValueError, AttributeError, KeyError):
                            pass
                        try:
                            if not isinstance(data, dict):
                                raise TypeError()
                            metrics_type_0_item_type_26 = ArgumentCorrectnessSpec.from_dict(data)



                            return metrics_type_0_item_type_26
                        except (TypeError, ValueError, AttributeError, KeyError):
                            pass
                        try:
                            if not isinstance(data, dict):
                                raise TypeError()
                            metrics_type_0_item_type_27 = TurnFaithfulnessSpec.from_dict(data)



                            return metrics_type_0_item_type_27
                        except (TypeError, ValueError, AttributeError, KeyError):
                            pass
                        if not isinstance(data, dict):
                            raise TypeError()
                        metrics_type_0_item_type_28 = TurnContextualRelevancySpec.from_dict(data)



                        return metrics_type_0_item_type_28

                    metrics_type_0_item = _parse_metrics_type_0_item(metrics_type_0_item_data)

                    metrics_type_0.append(metrics_type_0_item)

                return metrics_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(list[AnswerRelevancySpec | ArgumentCorrectnessSpec | BleuSpec | ChoiceAccuracySpec | ContextualPrecisionSpec | ContextualRecallSpec | ContextualRelevancySpec | ConversationalGEvalSpec | ConversationCompletenessSpec | ExactMatchSpec | FaithfulnessSpec | GEvalSpec | ImageCoherenceSpec | ImageEditingSpec | ImageHelpfulnessSpec | ImageReferenceSpec | KnowledgeRetentionSpec | LlmAccuracySpec | PairwiseSpec | PsnrSpec | RoleAdherenceSpec | RougeSpec | SsimSpec | TaskCompletionSpec | TextToImageSpec | ToolCorrectnessSpec | TurnContextualRelevancySpec | TurnFaithfulnessSpec | TurnRelevancySpec] | None | Unset, data)

        metrics = _parse_metrics(d.pop("metrics", UNSET))


        def _parse_model_id(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        model_id = _parse_model_id(d.pop("model_id", UNSET))


        def _parse_name(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        name = _parse_name(d.pop("name", UNSET))


        def _parse_predictions(data: object) -> list[Prediction] | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, list):
                    raise TypeError()
                predictions_type_0 = []
                _predictions_type_0 = data
                for predictions_type_0_item_data in (_predictions_type_0):
                    predictions_type_0_item = Prediction.from_dict(predictions_type_0_item_data)



                    predictions_type_0.append(predictions_type_0_item)

                return predictions_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(list[Prediction] | None | Unset, data)

        predictions = _parse_predictions(d.pop("predictions", UNSET))


        def _parse_subsets(data: object) -> list[str] | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, list):
                    raise TypeError()
                subsets_type_0 = cast(list[str], data)

                return subsets_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(list[str] | None | Unset, data)

        subsets = _parse_subsets(d.pop("subsets", UNSET))


        def _parse_webhook_url(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        webhook_url = _parse_webhook_url(d.pop("webhook_url", UNSET))


        run_create = cls(
            dataset_id=dataset_id,
            cache=cache,
            cluster_by=cluster_by,
            generation=generation,
            judge=judge,
            limit=limit,
            metadata=metadata,
            metrics=metrics,
            model_id=model_id,
            name=name,
            predictions=predictions,
            subsets=subsets,
            webhook_url=webhook_url,
        )

        return run_create

