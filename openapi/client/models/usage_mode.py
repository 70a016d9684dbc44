from enum import StrEnum


class UsageMode(StrEnum):
    ABSOLUTE = "absolute"
    INCREMENT = "increment"

    def __str__(self) -> str:
        return str(self.value)
