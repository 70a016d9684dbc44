from enum import StrEnum


class SearchRunDetail(StrEnum):
    ADAPTIVE = "adaptive"
    FULL = "full"

    def __str__(self) -> str:
        return str(self.value)
