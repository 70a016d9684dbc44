from enum import StrEnum


class ImportTranscriptsOnConflict(StrEnum):
    FAIL = "fail"
    REPLACE = "replace"
    SKIP = "skip"

    def __str__(self) -> str:
        return str(self.value)
