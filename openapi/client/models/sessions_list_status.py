from enum import StrEnum


class SessionsListStatus(StrEnum):
    ACTIVE = "active"
    ALL = "all"
    ENDED = "ended"

    def __str__(self) -> str:
        return str(self.value)
