from enum import StrEnum


class HandoffFailOnlyStatesType0Item(StrEnum):
    PENDING = "pending"
    RUNNING = "running"

    def __str__(self) -> str:
        return str(self.value)
