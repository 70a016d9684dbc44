from enum import StrEnum


class ExportSessionsFormattedLayoutType0(StrEnum):
    DOCUMENT = "document"
    FILES = "files"

    def __str__(self) -> str:
        return str(self.value)
