""" Contains all the data models used in inputs/outputs """

from .agreement import Agreement
from .agreement_brief import AgreementBrief
from .agreement_disagreement import AgreementDisagreement
from .agreement_statistic import AgreementStatistic
from .agreement_statistic_brief import AgreementStatisticBrief
from .alert import Alert
from .alert_settings import AlertSettings
from .alignment import Alignment
from .alignment_candidate_metric import AlignmentCandidateMetric
from .alignment_create import AlignmentCreate
from .alignment_decision_type_0 import AlignmentDecisionType0
from .alignment_guidance import AlignmentGuidance
from .alignment_list import AlignmentList
from .alignment_report import AlignmentReport
from .alignment_report_kappa_difference import AlignmentReportKappaDifference
from .alignment_side import AlignmentSide
from .alignment_side_cohen_kappa import AlignmentSideCohenKappa
from .alignment_side_weighted_kappa import AlignmentSideWeightedKappa
from .alignment_split import AlignmentSplit
from .alignment_status import AlignmentStatus
from .answer_relevancy_spec import AnswerRelevancySpec
from .argument_correctness_spec import ArgumentCorrectnessSpec
from .audit_event import AuditEvent
from .audit_event_details import AuditEventDetails
from .audit_event_list import AuditEventList
from .backfill import Backfill
from .backfill_request import BackfillRequest
from .backfill_skipped import BackfillSkipped
from .bleu_spec import BleuSpec
from .body_create_dataset import BodyCreateDataset
from .body_create_dataset_format import BodyCreateDatasetFormat
from .body_create_file import BodyCreateFile
from .calibrated_mean import CalibratedMean
from .calibrated_mean_estimand import CalibratedMeanEstimand
from .candidate_model import CandidateModel
from .candidate_model_create import CandidateModelCreate
from .candidate_model_list import CandidateModelList
from .choice_accuracy_spec import ChoiceAccuracySpec
from .clustered_error import ClusteredError
from .clustered_error_ci_method_type_0 import ClusteredErrorCiMethodType0
from .comparison import Comparison
from .comparison_create import ComparisonCreate
from .comparison_create_fragile import ComparisonCreateFragile
from .comparison_fragile import ComparisonFragile
from .comparison_item import ComparisonItem
from .comparison_item_list import ComparisonItemList
from .comparison_kind import ComparisonKind
from .comparison_list import ComparisonList
from .condition import Condition
from .condition_op import ConditionOp
from .confusion_matrix import ConfusionMatrix
from .contextual_precision_spec import ContextualPrecisionSpec
from .contextual_recall_spec import ContextualRecallSpec
from .contextual_relevancy_spec import ContextualRelevancySpec
from .conversation_completeness_spec import ConversationCompletenessSpec
from .conversational_g_eval_spec import ConversationalGEvalSpec
from .conversational_g_eval_spec_evaluation_params_item import ConversationalGEvalSpecEvaluationParamsItem
from .custom_data_source_config import CustomDataSourceConfig
from .custom_data_source_config_item_schema import CustomDataSourceConfigItemSchema
from .dataset import Dataset
from .dataset_format import DatasetFormat
from .dataset_list import DatasetList
from .dataset_row import DatasetRow
from .dataset_row_extra_type_0 import DatasetRowExtraType0
from .dataset_row_kind import DatasetRowKind
from .dataset_row_list import DatasetRowList
from .dataset_row_messages_item import DatasetRowMessagesItem
from .dataset_subset import DatasetSubset
from .error_info import ErrorInfo
from .errored_counts import ErroredCounts
from .estimate import Estimate
from .estimate_totals import EstimateTotals
from .eval_ import Eval
from .eval_create import EvalCreate
from .eval_create_metadata_type_0 import EvalCreateMetadataType0
from .eval_create_testing_criteria_item import EvalCreateTestingCriteriaItem
from .eval_data_source_config import EvalDataSourceConfig
from .eval_deleted import EvalDeleted
from .eval_metadata_type_0 import EvalMetadataType0
from .eval_run_create import EvalRunCreate
from .eval_run_create_data_source import EvalRunCreateDataSource
from .eval_run_create_metadata_type_0 import EvalRunCreateMetadataType0
from .eval_run_criterion_counts import EvalRunCriterionCounts
from .eval_run_deleted import EvalRunDeleted
from .eval_run_error import EvalRunError
from .eval_run_model_usage import EvalRunModelUsage
from .eval_run_object import EvalRunObject
from .eval_run_object_data_source import EvalRunObjectDataSource
from .eval_run_object_metadata_type_0 import EvalRunObjectMetadataType0
from .eval_run_object_status import EvalRunObjectStatus
from .eval_run_origin import EvalRunOrigin
from .eval_run_result_counts import EvalRunResultCounts
from .eval_testing_criteria_item import EvalTestingCriteriaItem
from .eval_update import EvalUpdate
from .eval_update_metadata_type_0 import EvalUpdateMetadataType0
from .evaluation import Evaluation
from .evaluation_create import EvaluationCreate
from .evaluation_create_metadata_type_0 import EvaluationCreateMetadataType0
from .evaluation_kind import EvaluationKind
from .evaluation_list import EvaluationList
from .evaluation_metadata import EvaluationMetadata
from .evaluation_metrics_item import EvaluationMetricsItem
from .evaluation_result import EvaluationResult
from .evaluation_result_list import EvaluationResultList
from .evaluation_result_logs import EvaluationResultLogs
from .evaluation_status import EvaluationStatus
from .exact_match_spec import ExactMatchSpec
from .export_evaluation_results_format import ExportEvaluationResultsFormat
from .export_evaluation_results_status_type_0 import ExportEvaluationResultsStatusType0
from .export_labels_format import ExportLabelsFormat
from .export_run_samples_format import ExportRunSamplesFormat
from .faithfulness_spec import FaithfulnessSpec
from .field_error import FieldError
from .file_deleted import FileDeleted
from .file_object import FileObject
from .fragile_counts import FragileCounts
from .g_eval_spec import GEvalSpec
from .g_eval_spec_evaluation_params_item import GEvalSpecEvaluationParamsItem
from .g_eval_template import GEvalTemplate
from .generation_config import GenerationConfig
from .get_usage_group_by import GetUsageGroupBy
from .guidance import Guidance
from .guidance_example import GuidanceExample
from .healthz_response_healthz import HealthzResponseHealthz
from .held_out_item import HeldOutItem
from .held_out_item_labels import HeldOutItemLabels
from .http_validation_error import HTTPValidationError
from .image_coherence_spec import ImageCoherenceSpec
from .image_editing_spec import ImageEditingSpec
from .image_helpfulness_spec import ImageHelpfulnessSpec
from .image_reference_spec import ImageReferenceSpec
from .image_url import ImageUrl
from .image_url_detail_type_0 import ImageUrlDetailType0
from .image_url_part import ImageUrlPart
from .image_url_part_blob_type_0 import ImageUrlPartBlobType0
from .item_side import ItemSide
from .judge_config import JudgeConfig
from .judge_estimate import JudgeEstimate
from .judge_panel_member import JudgePanelMember
from .judge_ref import JudgeRef
from .judge_ref_aggregate import JudgeRefAggregate
from .judge_used import JudgeUsed
from .judge_verdict import JudgeVerdict
from .judgment_out import JudgmentOut
from .judgment_out_error_type_0 import JudgmentOutErrorType0
from .knowledge_retention_spec import KnowledgeRetentionSpec
from .label import Label
from .label_create import LabelCreate
from .label_import import LabelImport
from .label_list import LabelList
from .label_selection import LabelSelection
from .label_summary import LabelSummary
from .list_comparison_items_direction_type_0 import ListComparisonItemsDirectionType0
from .list_eval_runs_order import ListEvalRunsOrder
from .list_eval_runs_status_type_0 import ListEvalRunsStatusType0
from .list_evals_order import ListEvalsOrder
from .list_evals_order_by import ListEvalsOrderBy
from .list_evaluation_results_order_type_0 import ListEvaluationResultsOrderType0
from .list_evaluation_results_status_type_0 import ListEvaluationResultsStatusType0
from .list_evaluations_kind import ListEvaluationsKind
from .list_evaluations_status_type_0 import ListEvaluationsStatusType0
from .list_files_order import ListFilesOrder
from .list_output_items_order import ListOutputItemsOrder
from .list_output_items_status_type_0 import ListOutputItemsStatusType0
from .list_page_eval import ListPageEval
from .list_page_eval_run_object import ListPageEvalRunObject
from .list_page_file_object import ListPageFileObject
from .list_page_online_result import ListPageOnlineResult
from .list_page_online_rule import ListPageOnlineRule
from .list_page_output_item import ListPageOutputItem
from .llm_accuracy_spec import LlmAccuracySpec
from .llm_accuracy_spec_rule import LlmAccuracySpecRule
from .lowest import Lowest
from .metric_comparison import MetricComparison
from .metric_comparison_ci_method_type_0 import MetricComparisonCiMethodType0
from .metric_comparison_verdict import MetricComparisonVerdict
from .metric_estimate import MetricEstimate
from .metric_judge_used import MetricJudgeUsed
from .metric_mismatch import MetricMismatch
from .metric_summary import MetricSummary
from .metric_summary_ci_method_type_0 import MetricSummaryCiMethodType0
from .metric_trend import MetricTrend
from .metric_version import MetricVersion
from .metric_version_agreement import MetricVersionAgreement
from .metric_version_agreement_label_kind import MetricVersionAgreementLabelKind
from .metric_version_agreement_threshold_source import MetricVersionAgreementThresholdSource
from .metric_version_definition import MetricVersionDefinition
from .metric_version_list import MetricVersionList
from .metric_version_status import MetricVersionStatus
from .near_threshold import NearThreshold
from .online_result import OnlineResult
from .online_result_logs import OnlineResultLogs
from .online_rule import OnlineRule
from .online_rule_create import OnlineRuleCreate
from .online_rule_create_export_headers_type_0 import OnlineRuleCreateExportHeadersType0
from .online_rule_create_target import OnlineRuleCreateTarget
from .online_rule_metrics_item import OnlineRuleMetricsItem
from .online_rule_target import OnlineRuleTarget
from .online_rule_trend import OnlineRuleTrend
from .online_rule_trend_bucket import OnlineRuleTrendBucket
from .online_rule_update import OnlineRuleUpdate
from .online_rule_update_export_headers_type_0 import OnlineRuleUpdateExportHeadersType0
from .online_rule_update_target import OnlineRuleUpdateTarget
from .output_item import OutputItem
from .output_item_datasource_item import OutputItemDatasourceItem
from .output_item_results_item import OutputItemResultsItem
from .output_item_sample import OutputItemSample
from .output_item_status import OutputItemStatus
from .pairwise_spec import PairwiseSpec
from .pairwise_spec_evaluation_params_item import PairwiseSpecEvaluationParamsItem
from .panel_member import PanelMember
from .panel_member_out import PanelMemberOut
from .person_label import PersonLabel
from .prediction import Prediction
from .problem import Problem
from .psnr_spec import PsnrSpec
from .recovery import Recovery
from .recovery_state import RecoveryState
from .report_row import ReportRow
from .report_row_ci_method_type_0 import ReportRowCiMethodType0
from .result_counts import ResultCounts
from .review_item import ReviewItem
from .review_label_create import ReviewLabelCreate
from .review_labelled import ReviewLabelled
from .review_labelled_selection import ReviewLabelledSelection
from .review_progress import ReviewProgress
from .review_queue import ReviewQueue
from .review_queue_create import ReviewQueueCreate
from .review_queue_list import ReviewQueueList
from .reviewer_progress import ReviewerProgress
from .role_adherence_spec import RoleAdherenceSpec
from .rouge_spec import RougeSpec
from .rouge_spec_statistic import RougeSpecStatistic
from .rouge_spec_variant import RougeSpecVariant
from .routing import Routing
from .rubric_item import RubricItem
from .rule_counts import RuleCounts
from .rule_counts_dropped import RuleCountsDropped
from .rule_counts_skipped import RuleCountsSkipped
from .run import Run
from .run_create import RunCreate
from .run_create_metadata_type_0 import RunCreateMetadataType0
from .run_generation import RunGeneration
from .run_judge import RunJudge
from .run_judge_strategy import RunJudgeStrategy
from .run_list import RunList
from .run_metadata import RunMetadata
from .run_status import RunStatus
from .sample import Sample
from .sample_candidate_type_0 import SampleCandidateType0
from .sample_error import SampleError
from .sample_list import SampleList
from .sample_scores import SampleScores
from .sample_status import SampleStatus
from .sampling import Sampling
from .scale import Scale
from .ssim_spec import SsimSpec
from .stability import Stability
from .stability_summary import StabilitySummary
from .stored_data_source_config import StoredDataSourceConfig
from .stored_data_source_config_metadata_type_0 import StoredDataSourceConfigMetadataType0
from .stored_data_source_config_type import StoredDataSourceConfigType
from .task_completion_spec import TaskCompletionSpec
from .test_case import TestCase
from .test_case_batch import TestCaseBatch
from .test_case_batch_appended import TestCaseBatchAppended
from .test_case_create import TestCaseCreate
from .test_case_create_metadata_type_0 import TestCaseCreateMetadataType0
from .test_case_list import TestCaseList
from .test_case_metadata_type_0 import TestCaseMetadataType0
from .text_part import TextPart
from .text_to_image_spec import TextToImageSpec
from .tool_call import ToolCall
from .tool_call_input_parameters_type_0 import ToolCallInputParametersType0
from .tool_correctness_spec import ToolCorrectnessSpec
from .tool_correctness_spec_arguments import ToolCorrectnessSpecArguments
from .trend_point import TrendPoint
from .turn import Turn
from .turn_contextual_relevancy_spec import TurnContextualRelevancySpec
from .turn_faithfulness_spec import TurnFaithfulnessSpec
from .turn_metadata_type_0 import TurnMetadataType0
from .turn_relevancy_spec import TurnRelevancySpec
from .turn_role import TurnRole
from .unmatched import Unmatched
from .unmatched_item import UnmatchedItem
from .unmatched_item_reason import UnmatchedItemReason
from .unmatched_item_side import UnmatchedItemSide
from .usage import Usage
from .usage_bucket import UsageBucket
from .usage_group_by import UsageGroupBy
from .usage_totals import UsageTotals
from .validation_error import ValidationError
from .validation_error_context import ValidationErrorContext
from .webhook_delivery import WebhookDelivery
from .webhook_delivery_list import WebhookDeliveryList
from .webhook_endpoint import WebhookEndpoint
from .webhook_endpoint_create import WebhookEndpointCreate
from .webhook_endpoint_list import WebhookEndpointList
from .webhook_endpoint_with_secret import WebhookEndpointWithSecret

__all__ = (
    "Agreement",
    "AgreementBrief",
    "AgreementDisagreement",
    "AgreementStatistic",
    "AgreementStatisticBrief",
    "Alert",
    "AlertSettings",
    "Alignment",
    "AlignmentCandidateMetric",
    "AlignmentCreate",
    "AlignmentDecisionType0",
    "AlignmentGuidance",
    "AlignmentList",
    "AlignmentReport",
    "AlignmentReportKappaDifference",
    "AlignmentSide",
    "AlignmentSideCohenKappa",
    "AlignmentSideWeightedKappa",
    "AlignmentSplit",
    "AlignmentStatus",
    "AnswerRelevancySpec",
    "ArgumentCorrectnessSpec",
    "AuditEvent",
    "AuditEventDetails",
    "AuditEventList",
    "Backfill",
    "BackfillRequest",
    "BackfillSkipped",
    "BleuSpec",
    "BodyCreateDataset",
    "BodyCreateDatasetFormat",
    "BodyCreateFile",
    "CalibratedMean",
    "CalibratedMeanEstimand",
    "CandidateModel",
    "CandidateModelCreate",
    "CandidateModelList",
    "ChoiceAccuracySpec",
    "ClusteredError",
    "ClusteredErrorCiMethodType0",
    "Comparison",
    "ComparisonCreate",
    "ComparisonCreateFragile",
    "ComparisonFragile",
    "ComparisonItem",
    "ComparisonItemList",
    "ComparisonKind",
    "ComparisonList",
    "Condition",
    "ConditionOp",
    "ConfusionMatrix",
    "ContextualPrecisionSpec",
    "ContextualRecallSpec",
    "ContextualRelevancySpec",
    "ConversationalGEvalSpec",
    "ConversationalGEvalSpecEvaluationParamsItem",
    "ConversationCompletenessSpec",
    "CustomDataSourceConfig",
    "CustomDataSourceConfigItemSchema",
    "Dataset",
    "DatasetFormat",
    "DatasetList",
    "DatasetRow",
    "DatasetRowExtraType0",
    "DatasetRowKind",
    "DatasetRowList",
    "DatasetRowMessagesItem",
    "DatasetSubset",
    "ErroredCounts",
    "ErrorInfo",
    "Estimate",
    "EstimateTotals",
    "Eval",
    "EvalCreate",
    "EvalCreateMetadataType0",
    "EvalCreateTestingCriteriaItem",
    "EvalDataSourceConfig",
    "EvalDeleted",
    "EvalMetadataType0",
    "EvalRunCreate",
    "EvalRunCreateDataSource",
    "EvalRunCreateMetadataType0",
    "EvalRunCriterionCounts",
    "EvalRunDeleted",
    "EvalRunError",
    "EvalRunModelUsage",
    "EvalRunObject",
    "EvalRunObjectDataSource",
    "EvalRunObjectMetadataType0",
    "EvalRunObjectStatus",
    "EvalRunOrigin",
    "EvalRunResultCounts",
    "EvalTestingCriteriaItem",
    "Evaluation",
    "EvaluationCreate",
    "EvaluationCreateMetadataType0",
    "EvaluationKind",
    "EvaluationList",
    "EvaluationMetadata",
    "EvaluationMetricsItem",
    "EvaluationResult",
    "EvaluationResultList",
    "EvaluationResultLogs",
    "EvaluationStatus",
    "EvalUpdate",
    "EvalUpdateMetadataType0",
    "ExactMatchSpec",
    "ExportEvaluationResultsFormat",
    "ExportEvaluationResultsStatusType0",
    "ExportLabelsFormat",
    "ExportRunSamplesFormat",
    "FaithfulnessSpec",
    "FieldError",
    "FileDeleted",
    "FileObject",
    "FragileCounts",
    "GenerationConfig",
    "GetUsageGroupBy",
    "GEvalSpec",
    "GEvalSpecEvaluationParamsItem",
    "GEvalTemplate",
    "Guidance",
    "GuidanceExample",
    "HealthzResponseHealthz",
    "HeldOutItem",
    "HeldOutItemLabels",
    "HTTPValidationError",
    "ImageCoherenceSpec",
    "ImageEditingSpec",
    "ImageHelpfulnessSpec",
    "ImageReferenceSpec",
    "ImageUrl",
    "ImageUrlDetailType0",
    "ImageUrlPart",
    "ImageUrlPartBlobType0",
    "ItemSide",
    "JudgeConfig",
    "JudgeEstimate",
    "JudgePanelMember",
    "JudgeRef",
    "JudgeRefAggregate",
    "JudgeUsed",
    "JudgeVerdict",
    "JudgmentOut",
    "JudgmentOutErrorType0",
    "KnowledgeRetentionSpec",
    "Label",
    "LabelCreate",
    "LabelImport",
    "LabelList",
    "LabelSelection",
    "LabelSummary",
    "ListComparisonItemsDirectionType0",
    "ListEvalRunsOrder",
    "ListEvalRunsStatusType0",
    "ListEvalsOrder",
    "ListEvalsOrderBy",
    "ListEvaluationResultsOrderType0",
    "ListEvaluationResultsStatusType0",
    "ListEvaluationsKind",
    "ListEvaluationsStatusType0",
    "ListFilesOrder",
    "ListOutputItemsOrder",
    "ListOutputItemsStatusType0",
    "ListPageEval",
    "ListPageEvalRunObject",
    "ListPageFileObject",
    "ListPageOnlineResult",
    "ListPageOnlineRule",
    "ListPageOutputItem",
    "LlmAccuracySpec",
    "LlmAccuracySpecRule",
    "Lowest",
    "MetricComparison",
    "MetricComparisonCiMethodType0",
    "MetricComparisonVerdict",
    "MetricEstimate",
    "MetricJudgeUsed",
    "MetricMismatch",
    "MetricSummary",
    "MetricSummaryCiMethodType0",
    "MetricTrend",
    "MetricVersion",
    "MetricVersionAgreement",
    "MetricVersionAgreementLabelKind",
    "MetricVersionAgreementThresholdSource",
    "MetricVersionDefinition",
    "MetricVersionList",
    "MetricVersionStatus",
    "NearThreshold",
    "OnlineResult",
    "OnlineResultLogs",
    "OnlineRule",
    "OnlineRuleCreate",
    "OnlineRuleCreateExportHeadersType0",
    "OnlineRuleCreateTarget",
    "OnlineRuleMetricsItem",
    "OnlineRuleTarget",
    "OnlineRuleTrend",
    "OnlineRuleTrendBucket",
    "OnlineRuleUpdate",
    "OnlineRuleUpdateExportHeadersType0",
    "OnlineRuleUpdateTarget",
    "OutputItem",
    "OutputItemDatasourceItem",
    "OutputItemResultsItem",
    "OutputItemSample",
    "OutputItemStatus",
    "PairwiseSpec",
    "PairwiseSpecEvaluationParamsItem",
    "PanelMember",
    "PanelMemberOut",
    "PersonLabel",
    "Prediction",
    "Problem",
    "PsnrSpec",
    "Recovery",
    "RecoveryState",
    "ReportRow",
    "ReportRowCiMethodType0",
    "ResultCounts",
    "ReviewerProgress",
    "ReviewItem",
    "ReviewLabelCreate",
    "ReviewLabelled",
    "ReviewLabelledSelection",
    "ReviewProgress",
    "ReviewQueue",
    "ReviewQueueCreate",
    "ReviewQueueList",
    "RoleAdherenceSpec",
    "RougeSpec",
    "RougeSpecStatistic",
    "RougeSpecVariant",
    "Routing",
    "RubricItem",
    "RuleCounts",
    "RuleCountsDropped",
    "RuleCountsSkipped",
    "Run",
    "RunCreate",
    "RunCreateMetadataType0",
    "RunGeneration",
    "RunJudge",
    "RunJudgeStrategy",
    "RunList",
    "RunMetadata",
    "RunStatus",
    "Sample",
    "SampleCandidateType0",
    "SampleError",
    "SampleList",
    "SampleScores",
    "SampleStatus",
    "Sampling",
    "Scale",
    "SsimSpec",
    "Stability",
    "StabilitySummary",
    "StoredDataSourceConfig",
    "StoredDataSourceConfigMetadataType0",
    "StoredDataSourceConfigType",
    "TaskCompletionSpec",
    "TestCase",
    "TestCaseBatch",
    "TestCaseBatchAppended",
    "TestCaseCreate",
    "TestCaseCreateMetadataType0",
    "TestCaseList",
    "TestCaseMetadataType0",
    "TextPart",
    "TextToImageSpec",
    "ToolCall",
    "ToolCallInputParametersType0",
    "ToolCorrectnessSpec",
    "ToolCorrectnessSpecArguments",
    "TrendPoint",
    "Turn",
    "TurnContextualRelevancySpec",
    "TurnFaithfulnessSpec",
    "TurnMetadataType0",
    "TurnRelevancySpec",
    "TurnRole",
    "Unmatched",
    "UnmatchedItem",
    "UnmatchedItemReason",
    "UnmatchedItemSide",
    "Usage",
    "UsageBucket",
    "UsageGroupBy",
    "UsageTotals",
    "ValidationError",
    "ValidationErrorContext",
    "WebhookDelivery",
    "WebhookDeliveryList",
    "WebhookEndpoint",
    "WebhookEndpointCreate",
    "WebhookEndpointList",
    "WebhookEndpointWithSecret",
)
