"""ORM models, one module per table."""

from app.models.alignment import Alignment
from app.models.api_key import ApiKey
from app.models.audit_event import AuditEvent
from app.models.blob import Blob
from app.models.blob_owner import BlobOwner
from app.models.blob_ref import BlobRef
from app.models.candidate_model import CandidateModel
from app.models.comparison import Comparison
from app.models.dataset import Dataset
from app.models.dataset_row import DatasetRow
from app.models.eval_definition import EvalDefinition
from app.models.eval_file import EvalFile
from app.models.eval_run import EvalRun
from app.models.evaluation import Evaluation
from app.models.idempotency_key import IdempotencyKey
from app.models.invitation import Invitation
from app.models.judge_cache_entry import JudgeCacheEntry
from app.models.judge_claim import JudgeClaim
from app.models.label import Label
from app.models.membership import Membership
from app.models.metric_summary import MetricSummary
from app.models.metric_version import MetricVersion
from app.models.online_conversation_call import OnlineConversationCall
from app.models.online_rule import (
    OnlineCall,
    OnlineRollup,
    OnlineRule,
    OnlineRuleBackfilled,
    OnlineRuleCount,
    OnlineRuleDay,
)
from app.models.otlp_pending import OtlpPending
from app.models.person import Person
from app.models.result import Result
from app.models.review_queue import ReviewAssignment, ReviewItem, ReviewQueue
from app.models.run import Run
from app.models.run_score import RunScore
from app.models.signed_out_session import SignedOutSession
from app.models.tenant import Tenant
from app.models.test_case import TestCase
from app.models.unqueued_slice import UnqueuedSlice
from app.models.usage_day import UsageDay
from app.models.webhook_delivery import WebhookDelivery
from app.models.webhook_endpoint import WebhookEndpoint
from app.models.webhook_event import WebhookEvent

__all__ = [
    "Alignment",
    "ApiKey",
    "AuditEvent",
    "Blob",
    "BlobOwner",
    "BlobRef",
    "CandidateModel",
    "Comparison",
    "Dataset",
    "DatasetRow",
    "EvalDefinition",
    "EvalFile",
    "EvalRun",
    "Evaluation",
    "IdempotencyKey",
    "Invitation",
    "JudgeCacheEntry",
    "JudgeClaim",
    "Label",
    "Membership",
    "MetricSummary",
    "MetricVersion",
    "OnlineCall",
    "OnlineConversationCall",
    "OnlineRollup",
    "OnlineRule",
    "OnlineRuleBackfilled",
    "OnlineRuleCount",
    "OnlineRuleDay",
    "OtlpPending",
    "Person",
    "Result",
    "ReviewAssignment",
    "ReviewItem",
    "ReviewQueue",
    "Run",
    "RunScore",
    "SignedOutSession",
    "Tenant",
    "TestCase",
    "UnqueuedSlice",
    "UsageDay",
    "WebhookDelivery",
    "WebhookEndpoint",
    "WebhookEvent",
]
