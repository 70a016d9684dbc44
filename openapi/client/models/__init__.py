"""Contains all the data models used in inputs/outputs"""

from .archive_in import ArchiveIn
from .archive_out import ArchiveOut
from .attachment_public import AttachmentPublic
from .attachment_ref import AttachmentRef
from .auto_prune_run_out import AutoPruneRunOut
from .auto_prune_status import AutoPruneStatus
from .background_process import BackgroundProcess
from .backup_out import BackupOut
from .body_attachments_upload import BodyAttachmentsUpload
from .browse_response import BrowseResponse
from .browse_result import BrowseResult
from .checkpoint_out import CheckpointOut
from .continuation_create import ContinuationCreate
from .day_usage import DayUsage
from .discover_response import DiscoverResponse
from .discover_result import DiscoverResult
from .export_sessions_formatted_format import ExportSessionsFormattedFormat
from .export_sessions_formatted_layout_type_0 import ExportSessionsFormattedLayoutType0
from .export_sessions_formatted_lineage import ExportSessionsFormattedLineage
from .export_sessions_formatted_status import ExportSessionsFormattedStatus
from .fork_create import ForkCreate
from .gateway_config_public import GatewayConfigPublic
from .gateway_config_public_reset_by_platform import GatewayConfigPublicResetByPlatform
from .gateway_config_public_reset_by_platform_additional_property import (
    GatewayConfigPublicResetByPlatformAdditionalProperty,
)
from .gateway_config_public_reset_by_type import GatewayConfigPublicResetByType
from .gateway_config_public_reset_by_type_additional_property import (
    GatewayConfigPublicResetByTypeAdditionalProperty,
)
from .gateway_config_public_session_reset import GatewayConfigPublicSessionReset
from .gateway_config_update import GatewayConfigUpdate
from .gateway_config_update_reset_by_platform_type_0 import GatewayConfigUpdateResetByPlatformType0
from .gateway_config_update_reset_by_type_type_0 import GatewayConfigUpdateResetByTypeType0
from .gateway_route_suspend_response_gateway_route_suspend import (
    GatewayRouteSuspendResponseGatewayRouteSuspend,
)
from .gateway_route_turn_response_gateway_route_turn import GatewayRouteTurnResponseGatewayRouteTurn
from .gateway_routes_get_response_gateway_routes_get import GatewayRoutesGetResponseGatewayRoutesGet
from .handoff import Handoff
from .handoff_claim import HandoffClaim
from .handoff_claimed import HandoffClaimed
from .handoff_claimed_state_type_0 import HandoffClaimedStateType0
from .handoff_claimed_thread_type_0 import HandoffClaimedThreadType0
from .handoff_complete import HandoffComplete
from .handoff_complete_thread_type_0 import HandoffCompleteThreadType0
from .handoff_completed import HandoffCompleted
from .handoff_completed_state_type_0 import HandoffCompletedStateType0
from .handoff_completed_thread_type_0 import HandoffCompletedThreadType0
from .handoff_fail import HandoffFail
from .handoff_fail_only_states_type_0_item import HandoffFailOnlyStatesType0Item
from .handoff_public import HandoffPublic
from .handoff_public_state_type_0 import HandoffPublicStateType0
from .handoff_public_thread_type_0 import HandoffPublicThreadType0
from .handoff_queued import HandoffQueued
from .handoff_queued_state_type_0 import HandoffQueuedStateType0
from .handoff_queued_thread_type_0 import HandoffQueuedThreadType0
from .handoff_request import HandoffRequest
from .health import Health
from .home_channel import HomeChannel
from .hour_activity import HourActivity
from .import_issue_out import ImportIssueOut
from .import_result import ImportResult
from .import_result_on_conflict import ImportResultOnConflict
from .import_sessions_files_body import ImportSessionsFilesBody
from .import_sessions_on_conflict import ImportSessionsOnConflict
from .import_transcripts_on_conflict import ImportTranscriptsOnConflict
from .indexing_status import IndexingStatus
from .insights_out import InsightsOut
from .matched_by import MatchedBy
from .mcp_message_body import McpMessageBody
from .mcp_message_response_200 import McpMessageResponse200
from .message_batch import MessageBatch
from .message_create import MessageCreate
from .message_create_content_type_2 import MessageCreateContentType2
from .message_create_role import MessageCreateRole
from .message_create_tool_calls_type_0_item import MessageCreateToolCallsType0Item
from .message_items import MessageItems
from .message_page import MessagePage
from .message_public import MessagePublic
from .messages_list_role_type_0_item import MessagesListRoleType0Item
from .model_usage import ModelUsage
from .optimize_out import OptimizeOut
from .platform_list import PlatformList
from .platform_public import PlatformPublic
from .platform_update import PlatformUpdate
from .policy import Policy
from .problem import Problem
from .prune_in import PruneIn
from .prune_out import PruneOut
from .read_response import ReadResponse
from .readiness import Readiness
from .readiness_checks import ReadinessChecks
from .recap_entry_public import RecapEntryPublic
from .recap_entry_public_role import RecapEntryPublicRole
from .recap_public import RecapPublic
from .repair_in import RepairIn
from .repair_out import RepairOut
from .resolved_session import ResolvedSession
from .resolved_session_model_config_type_0 import ResolvedSessionModelConfigType0
from .resolved_session_title_source_type_0 import ResolvedSessionTitleSourceType0
from .rewind_request import RewindRequest
from .rewind_result import RewindResult
from .route_command_result import RouteCommandResult
from .route_command_result_entry import RouteCommandResultEntry
from .route_key import RouteKey
from .route_message import RouteMessage
from .route_page import RoutePage
from .route_page_items_item import RoutePageItemsItem
from .route_reset import RouteReset
from .route_response import RouteResponse
from .route_response_entry import RouteResponseEntry
from .route_switch import RouteSwitch
from .route_turn import RouteTurn
from .scroll_response import ScrollResponse
from .search_body import SearchBody
from .search_body_detail import SearchBodyDetail
from .search_body_sort import SearchBodySort
from .search_message import SearchMessage
from .search_run_detail import SearchRunDetail
from .search_run_sort import SearchRunSort
from .selected_session import SelectedSession
from .session_create import SessionCreate
from .session_create_model_config_type_0 import SessionCreateModelConfigType0
from .session_create_source import SessionCreateSource
from .session_end import SessionEnd
from .session_lineage import SessionLineage
from .session_meta import SessionMeta
from .session_page import SessionPage
from .session_public import SessionPublic
from .session_public_model_config_type_0 import SessionPublicModelConfigType0
from .session_public_title_source_type_0 import SessionPublicTitleSourceType0
from .session_update import SessionUpdate
from .session_update_model_config_type_0 import SessionUpdateModelConfigType0
from .sessions_list_order import SessionsListOrder
from .sessions_list_status import SessionsListStatus
from .sign_in_link import SignInLink
from .source_usage import SourceUsage
from .stats_out import StatsOut
from .stats_out_by_source import StatsOutBySource
from .sync_batch_in import SyncBatchIn
from .sync_batch_in_sessions_item import SyncBatchInSessionsItem
from .sync_messages_in import SyncMessagesIn
from .sync_refused_out import SyncRefusedOut
from .sync_result_out import SyncResultOut
from .tool_count import ToolCount
from .unrenderable import Unrenderable
from .unrenderable_detail import UnrenderableDetail
from .unrenderable_detail_reason import UnrenderableDetailReason
from .usage_mode import UsageMode
from .usage_row import UsageRow
from .usage_update import UsageUpdate
from .vacuum_out import VacuumOut
from .validation_issue import ValidationIssue
from .weekday_activity import WeekdayActivity

__all__ = (
    "ArchiveIn",
    "ArchiveOut",
    "AttachmentPublic",
    "AttachmentRef",
    "AutoPruneRunOut",
    "AutoPruneStatus",
    "BackgroundProcess",
    "BackupOut",
    "BodyAttachmentsUpload",
    "BrowseResponse",
    "BrowseResult",
    "CheckpointOut",
    "ContinuationCreate",
    "DayUsage",
    "DiscoverResponse",
    "DiscoverResult",
    "ExportSessionsFormattedFormat",
    "ExportSessionsFormattedLayoutType0",
    "ExportSessionsFormattedLineage",
    "ExportSessionsFormattedStatus",
    "ForkCreate",
    "GatewayConfigPublic",
    "GatewayConfigPublicResetByPlatform",
    "GatewayConfigPublicResetByPlatformAdditionalProperty",
    "GatewayConfigPublicResetByType",
    "GatewayConfigPublicResetByTypeAdditionalProperty",
    "GatewayConfigPublicSessionReset",
    "GatewayConfigUpdate",
    "GatewayConfigUpdateResetByPlatformType0",
    "GatewayConfigUpdateResetByTypeType0",
    "GatewayRouteSuspendResponseGatewayRouteSuspend",
    "GatewayRouteTurnResponseGatewayRouteTurn",
    "GatewayRoutesGetResponseGatewayRoutesGet",
    "Handoff",
    "HandoffClaim",
    "HandoffClaimed",
    "HandoffClaimedStateType0",
    "HandoffClaimedThreadType0",
    "HandoffComplete",
    "HandoffCompleteThreadType0",
    "HandoffCompleted",
    "HandoffCompletedStateType0",
    "HandoffCompletedThreadType0",
    "HandoffFail",
    "HandoffFailOnlyStatesType0Item",
    "HandoffPublic",
    "HandoffPublicStateType0",
    "HandoffPublicThreadType0",
    "HandoffQueued",
    "HandoffQueuedStateType0",
    "HandoffQueuedThreadType0",
    "HandoffRequest",
    "Health",
    "HomeChannel",
    "HourActivity",
    "ImportIssueOut",
    "ImportResult",
    "ImportResultOnConflict",
    "ImportSessionsFilesBody",
    "ImportSessionsOnConflict",
    "ImportTranscriptsOnConflict",
    "IndexingStatus",
    "InsightsOut",
    "MatchedBy",
    "McpMessageBody",
    "McpMessageResponse200",
    "MessageBatch",
    "MessageCreate",
    "MessageCreateContentType2",
    "MessageCreateRole",
    "MessageCreateToolCallsType0Item",
    "MessageItems",
    "MessagePage",
    "MessagePublic",
    "MessagesListRoleType0Item",
    "ModelUsage",
    "OptimizeOut",
    "PlatformList",
    "PlatformPublic",
    "PlatformUpdate",
    "Policy",
    "Problem",
    "PruneIn",
    "PruneOut",
    "ReadResponse",
    "Readiness",
    "ReadinessChecks",
    "RecapEntryPublic",
    "RecapEntryPublicRole",
    "RecapPublic",
    "RepairIn",
    "RepairOut",
    "ResolvedSession",
    "ResolvedSessionModelConfigType0",
    "ResolvedSessionTitleSourceType0",
    "RewindRequest",
    "RewindResult",
    "RouteCommandResult",
    "RouteCommandResultEntry",
    "RouteKey",
    "RouteMessage",
    "RoutePage",
    "RoutePageItemsItem",
    "RouteReset",
    "RouteResponse",
    "RouteResponseEntry",
    "RouteSwitch",
    "RouteTurn",
    "ScrollResponse",
    "SearchBody",
    "SearchBodyDetail",
    "SearchBodySort",
    "SearchMessage",
    "SearchRunDetail",
    "SearchRunSort",
    "SelectedSession",
    "SessionCreate",
    "SessionCreateModelConfigType0",
    "SessionCreateSource",
    "SessionEnd",
    "SessionLineage",
    "SessionMeta",
    "SessionPage",
    "SessionPublic",
    "SessionPublicModelConfigType0",
    "SessionPublicTitleSourceType0",
    "SessionUpdate",
    "SessionUpdateModelConfigType0",
    "SessionsListOrder",
    "SessionsListStatus",
    "SignInLink",
    "SourceUsage",
    "StatsOut",
    "StatsOutBySource",
    "SyncBatchIn",
    "SyncBatchInSessionsItem",
    "SyncMessagesIn",
    "SyncRefusedOut",
    "SyncResultOut",
    "ToolCount",
    "Unrenderable",
    "UnrenderableDetail",
    "UnrenderableDetailReason",
    "UsageMode",
    "UsageRow",
    "UsageUpdate",
    "VacuumOut",
    "ValidationIssue",
    "WeekdayActivity",
)
