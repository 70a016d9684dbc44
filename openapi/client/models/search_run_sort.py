from enum import StrEnum


class SearchRunSort(StrEnum):
    NEWEST = "newest"
    OLDEST = "oldest"
    RELEVANCE = "relevance"

    def __str__(self) -> str:
        return str(self.value)
