from enum import StrEnum


class SessionsListOrder(StrEnum):
    LAST_ACTIVE = "last_active"
    STARTED = "started"

    def __str__(self) -> str:
        return str(self.value)
