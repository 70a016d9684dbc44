from enum import StrEnum


class SessionPublicTitleSourceType0(StrEnum):
    AUTO = "auto"
    USER = "user"

    def __str__(self) -> str:
        return str(self.value)
