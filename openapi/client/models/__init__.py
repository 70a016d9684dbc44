"""Contains all the data models used in inputs/outputs"""

from .handoff import Handoff
from .health import Health
from .problem import Problem
from .readiness import Readiness
from .readiness_checks import ReadinessChecks
from .session_create import SessionCreate
from .session_create_model_config_type_0 import SessionCreateModelConfigType0
from .session_end import SessionEnd
from .session_page import SessionPage
from .session_public import SessionPublic
from .session_public_model_config_type_0 import SessionPublicModelConfigType0
from .session_update import SessionUpdate
from .session_update_model_config_type_0 import SessionUpdateModelConfigType0
from .sessions_list_order import SessionsListOrder
from .sessions_list_status import SessionsListStatus
from .usage_mode import UsageMode
from .usage_update import UsageUpdate
from .validation_issue import ValidationIssue

__all__ = (
    "Handoff",
    "Health",
    "Problem",
    "Readiness",
    "ReadinessChecks",
    "SessionCreate",
    "SessionCreateModelConfigType0",
    "SessionEnd",
    "SessionPage",
    "SessionPublic",
    "SessionPublicModelConfigType0",
    "SessionUpdate",
    "SessionUpdateModelConfigType0",
    "SessionsListOrder",
    "SessionsListStatus",
    "UsageMode",
    "UsageUpdate",
    "ValidationIssue",
)
