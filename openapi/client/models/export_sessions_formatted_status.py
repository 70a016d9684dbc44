from enum import StrEnum


class ExportSessionsFormattedStatus(StrEnum):
    ACTIVE = "active"
    ALL = "all"
    ENDED = "ended"

    def __str__(self) -> str:
        return str(self.value)
