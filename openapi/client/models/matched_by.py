from enum import StrEnum


class MatchedBy(StrEnum):
    ID = "id"
    LATEST = "latest"
    PREFIX = "prefix"
    TITLE = "title"

    def __str__(self) -> str:
        return str(self.value)
