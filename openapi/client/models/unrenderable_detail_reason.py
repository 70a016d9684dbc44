from enum import StrEnum


class UnrenderableDetailReason(StrEnum):
    INTEGER_OUT_OF_RANGE = "integer_out_of_range"
    INVALID_UNICODE = "invalid_unicode"
    NESTING_TOO_DEEP = "nesting_too_deep"

    def __str__(self) -> str:
        return str(self.value)
