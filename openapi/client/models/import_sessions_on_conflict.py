from enum import StrEnum


class ImportSessionsOnConflict(StrEnum):
    FAIL = "fail"
    REPLACE = "replace"
    SKIP = "skip"

    def __str__(self) -> str:
        return str(self.value)
