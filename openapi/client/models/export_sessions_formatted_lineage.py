from enum import StrEnum


class ExportSessionsFormattedLineage(StrEnum):
    LOGICAL = "logical"
    SINGLE = "single"

    def __str__(self) -> str:
        return str(self.value)
